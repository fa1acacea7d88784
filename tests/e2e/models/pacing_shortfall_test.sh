# Pacing reads like an open model while the service is fast and collapses like a closed one when it slows: when the
# lab's service slows mid-run, achieved iterations fall below the configured rate and the results name the
# intervals.
source "$OPENLOOP_E2E_LIB"
start_lab --workers 4 --service 1ms
slow() { sleep 2.2; curl -sS -X POST -d '{"service":"300ms"}' "$LAB_URL/_lab/config" >/dev/null; }
slow &
slower=$!
code=0
"$OPENLOOP" run "$LAB_URL/" --vus 2 --pacing 100ms --duration 5s --json "$E2E_TMP/r.json" >"$E2E_TMP/out.txt" || code=$?
wait "$slower"
[[ $code == 0 || $code == 3 ]] || fail "exit $code"
r=$E2E_TMP/r.json
[[ $(json "$r" .model) == pacing ]] || fail "model pacing"
assert_conserved "$r"
assert_cmp "$(json "$r" .summary.flows.configured_iterations_per_s)" == 20 "2 users every 100 ms = 20/s"
assert_cmp "$(json "$r" '.intervals[0].flows.iterations')" ">=" 19 "fast service: the pace is kept"
assert_cmp "$(json "$r" '.summary.flows.shortfall_intervals_s | length')" ">=" 2 "slow service: shortfall named"
assert_cmp "$(json "$r" '.summary.flows.shortfall_intervals_s[0]')" ">=" 2 "no shortfall before the slowdown"
grep -q 'not the load configured' "$E2E_TMP/out.txt" || fail "summary says the load applied was not the load configured"
pass "pacing shortfall reported for intervals $(jq -c .summary.flows.shortfall_intervals_s "$r")"
