# Retries with users: a closed user's retry keeps its user's connection and the user waits for the final outcome;
# a session's step retries the same way. Counters and sessions balance.
# e2e: light (retry counts at 40/s)
source "$OPENLOOP_E2E_LIB"
source "$(dirname "$0")/retry_lib.sh"
start_lab --workers 8 --service 2ms --error-rate 0.3

code=0
"$OPENLOOP" run "$LAB_URL/" --vus 4 --think 10ms --duration 2s --threads 2 --retry-attempts 3 --slo none \
  --json "$E2E_TMP/closed.json" >/dev/null || code=$?
c=$E2E_TMP/closed.json
accept_invalid_only_for "$code" "$c"  # a closed run is judged on the generator's own CPU and errors: VALID here
assert_conserved "$c"
assert_cmp "$(json "$c" .summary.counts.amplification)" ">=" 1.25 "closed users retry 5xx"
assert_cmp "$(json "$c" .summary.counts.connections_opened)" "<=" 4 "each user keeps its one connection"
assert_cmp "$(jq '.summary.counts.ok / .summary.counts.intended' "$c")" ">=" 0.95 "≈ 97 % ok"
pass "closed users: $(counts closed)"

code=0
"$OPENLOOP" run "$LAB_URL/" --session-rate 40/s --session-steps 3 --think 5ms --duration 2s --threads 2 \
  --retry-attempts 3 --slo none --json "$E2E_TMP/sessions.json" >/dev/null || code=$?
s=$E2E_TMP/sessions.json
accept_invalid_only_for "$code" "$s" '^send lateness'  # the generator's own, on a busy box
assert_conserved "$s"
assert_cmp "$(json "$s" .summary.counts.amplification)" ">=" 1.25 "session steps retry 5xx"
f=$(jq '.summary.flows | .sessions_intended - .sessions_completed - .sessions_failed - .sessions_dropped - .sessions_unfinished' "$s")
assert_cmp "$f" == 0 "sessions balance"
assert_cmp "$(jq '.summary.flows.sessions_completed / .summary.flows.sessions_intended' "$s")" ">=" 0.85 \
  "most sessions complete all 3 steps (≈ 0.973³ with retries, 0.343 without)"
pass "sessions: $(counts sessions)"
