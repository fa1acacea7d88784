#!/usr/bin/env bash
# A real Locust (Debian python3-locust): 20 users paced by constant_throughput(2), so 40/s, against the lab frozen
# for 300 ms (under the 500-ms pace) and then for 2 s (over it): its --csv stats history audited finds the model
# paced (the users' mean wait fell with the response time's rise, by Little's law over the slow stretches), the pace
# of 500 ms, the shortfall while the responses outlasted it (seed 001's reading of Locust), and the honest run at
# 40/s. The same run with constant(0.48), a think time, is found closed (checked by hand; docs/audit.md).
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
[[ $(json "$A" .model.model) == paced ]] || fail "model: $(json "$A" .model.model): $(json "$A" .model.evidence)"
evidence=$(json "$A" .model.evidence)
grep -qE 'pace (4[5-9][0-9]|5[0-4][0-9])ms\)' <<<"$evidence" || fail "pace not near 500 ms: $evidence"
grep -qE '% short\)' <<<"$evidence" || fail "no shortfall named: $evidence"
pass "paced: $evidence"
# The feedback is not asserted: Locust's 99% column is over its last 10 s, so a 2-s freeze raises the p99 of every
# row after it, and the healthy p99 with it (docs/audit.md, limits).
assert_near "$(json "$A" .honest_run.rate_per_s)" 40 6 "the honest run at the rate the users were paced to"
pass "feedback: $(json "$A" .feedback.sentence); honest run $(json "$A" .honest_run.command)"
