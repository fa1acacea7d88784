#!/usr/bin/env bash
# A real Locust (Debian python3-locust): 20 users paced by constant_throughput(2), so 40/s, against the lab frozen
# for 300 ms (under the 500-ms pace) and then for 2 s (over it): its --csv stats history is read, Little's law finds
# the 20 users and the honest run is at the 40/s the pace asked for. The model it reads is printed, not asserted.
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
require_tools locust jq

cat >"$E2E_TMP/locustfile.py" <<'PY'
from locust import HttpUser, constant_throughput, task


class User(HttpUser):
    wait_time = constant_throughput(2)

    @task
    def root(self):
        self.client.get("/")
PY
start_lab --workers 10 --service 2ms --stall-at 5s+300ms --stall-at 9s+2s
(cd "$E2E_TMP" && timeout 60 locust -f locustfile.py --headless -u 20 -r 20 -t 14s --host "$LAB_URL" --csv l \
  >locust.out 2>&1) || fail "locust failed (exit $?): $(tail -n 5 "$E2E_TMP/locust.out")"
stop_lab
H=$E2E_TMP/l_stats_history.csv
[[ -s $H ]] || fail "Locust wrote no stats history"

"$OPENLOOP" audit "$H" --json "$E2E_TMP/audit.json" >"$E2E_TMP/audit.txt" ||
  fail "audit exit $?: $(cat "$E2E_TMP/audit.txt")"
cat "$E2E_TMP/audit.txt"
A=$E2E_TMP/audit.json
[[ $(json "$A" .tool) == Locust ]] || fail "tool: $(json "$A" .tool)"
# What holds in every run: Locust named, the mean user count as Little's N, and the honest run at the rate the
# pace asked for (read from the windows, not Locust's lagging Requests/s). The model is not asserted: beside the
# whole suite the windows around the freezes read paced (0.35, 0.36, 1.00) but once −2.10 (neither claimed since),
# so a pace is not told reliably from a real Locust history yet (issue 31 stays open for it; the arithmetic is
# unit-tested in LocustHistory.*).
assert_near "$(json "$A" .little.n)" 20 3 "Little's law's N: the 20 users"
pass "N = $(json "$A" .little.n); model: $(json "$A" .model.evidence)"
# The feedback is not asserted: Locust's 99% column is over its last 10 s, so a 2-s freeze raises the p99 of every
# row after it, and the healthy p99 with it (docs/audit.md, limits).
assert_near "$(json "$A" .honest_run.rate_per_s)" 40 6 "the honest run at the rate the users were paced to"
pass "feedback: $(json "$A" .feedback.sentence); honest run $(json "$A" .honest_run.command)"
