#!/usr/bin/env bash
# Two real Locusts (Debian python3-locust) of 20 users each, side by side against one lab: one paced by
# constant_throughput(2) (a 500-ms pace, 40/s), one with a think time of between(0.3, 0.7) (also about 40/s while
# the lab answers in 2 ms; a constant think time keeps the users in step, all 20 completing in bursts every cycle,
# and one-second windows then read 20, 35, 20 a second where the rate is 25). Mid-run the lab answers in 300 ms for 5 s: still under the pace, so the paced users keep
# their rate (their wait shrinks by the response time's rise) while the think-time users slow to about 25/s (their
# wait stays). The audit reads each --csv stats history and must tell them apart: paced, and closed with a think
# time; Little's law finds the 20 users of each; the honest run is at the 40/s the pace asked for.
# (A freeze longer than the pace, as this test used until stop 44, leaves each paced user one stuck request, as a
# closed loop, and Locust's windows straddle it: the model read from them was not reliable.)
# Locust flushes its stats history every CSV_STATS_FLUSH_INTERVAL_SEC (10 s) and, in Debian's version, not at exit:
# the rows after the last flush were lost (a 22-s run's file ended at 10 s). The locustfiles set it to 1 s, as
# Locust's documentation shows ("Retrieve test statistics in CSV format"); docs/audit.md tells users the same.
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
require_tools locust jq curl

for kind in paced think; do
  wait=$([[ $kind == paced ]] && echo "constant_throughput(2)" || echo "between(0.3, 0.7)")
  cat >"$E2E_TMP/$kind.py" <<PY
import locust.stats
from locust import HttpUser, between, constant_throughput, task

locust.stats.CSV_STATS_FLUSH_INTERVAL_SEC = 1


class User(HttpUser):
    wait_time = $wait

    @task
    def root(self):
        self.client.get("/$kind")
PY
done
start_lab --workers 100 --service 2ms
set_service() {
  [[ $(curl -sS --max-time 5 -o /dev/null -w '%{http_code}' -X POST -d "{\"service\": \"$1\"}" \
    "$LAB_URL/_lab/config") == 200 ]] || fail "the lab refused service $1"
}
pids=()
for kind in paced think; do
  (cd "$E2E_TMP" && exec timeout 60 locust -f "$kind.py" --headless -u 20 -r 20 -t 16s --host "$LAB_URL" \
    --csv "$kind" >"$kind.out" 2>&1) &
  pids+=($!)
  E2E_PIDS+=($!)
done
# The healthy stretch counts from when both Locusts' users are all sending (about 40 requests each in the first
# second), however long Python took to start.
for _ in $(seq 200); do
  (($(lab_query .completed) >= 80)) && break
  sleep 0.1
done
(($(lab_query .completed) >= 80)) || fail "the Locusts sent $(lab_query .completed) requests in 20 s"
sleep 4   # the healthy stretch: the experiment's schedule, not a wait for an event
set_service 300ms
sleep 5   # the slow stretch
set_service 2ms
for i in 0 1; do
  wait "${pids[$i]}" || fail "locust failed (exit $?): $(tail -n 5 "$E2E_TMP"/*.out)"
done
stop_lab

for kind in paced think; do
  H=$E2E_TMP/${kind}_stats_history.csv
  [[ -s $H ]] || fail "Locust ($kind) wrote no stats history"
  "$OPENLOOP" audit "$H" --json "$E2E_TMP/$kind.json" >"$E2E_TMP/$kind.txt" ||
    fail "audit exit $?: $(cat "$E2E_TMP/$kind.txt")"
  A=$E2E_TMP/$kind.json
  echo "== $kind: $(json "$A" .model.evidence)"
  [[ $(json "$A" .tool) == Locust ]] || fail "tool: $(json "$A" .tool)"
  assert_near "$(json "$A" .little.n)" 20 3 "$kind: Little's law's N, the 20 users"
done
[[ $(json "$E2E_TMP/paced.json" .model.model) == paced ]] ||
  fail "constant_throughput read as $(json "$E2E_TMP/paced.json" .model.model): $(json "$E2E_TMP/paced.json" .model.evidence)"
grep -q 'pace 5[0-9][0-9]ms' <<<"$(json "$E2E_TMP/paced.json" .model.evidence)" ||
  fail "the pace is not named as ~500 ms: $(json "$E2E_TMP/paced.json" .model.evidence)"
# The think-time users must not be read as paced; whether their think time is named depends on how steady their
# wait was (at load 14 their falls read 0.01, 0.10, 0.24: a think time; the rule's dead zone is 0.25 to 0.35).
[[ $(json "$E2E_TMP/think.json" .model.model) == closed ]] ||
  fail "between(0.3, 0.7) read as $(json "$E2E_TMP/think.json" .model.model): $(json "$E2E_TMP/think.json" .model.evidence)"
# The feedback: the think-time users' rate fell in the slow stretch, the paced users' did not.
assert_cmp "$(json "$E2E_TMP/think.json" .feedback.slow_rate_per_s)" "<" 32 "think time: arrivals fell with the slow answers"
assert_near "$(json "$E2E_TMP/paced.json" .honest_run.rate_per_s)" 40 6 "the honest run at the rate the users were paced to"
pass "paced: $(json "$E2E_TMP/paced.json" .model.evidence)"
pass "think: $(json "$E2E_TMP/think.json" .model.evidence)"
