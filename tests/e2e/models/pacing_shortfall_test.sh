# Pacing reads like an open model while the service is fast and collapses like a closed one when it slows: when the
# lab's service slows mid-run, achieved iterations fall below the configured rate and the results name the
# intervals.
# Robust by construction: a 1 s warm-up takes the start-up (threads and connections starting late on a loaded
# machine) out of the measured intervals, and the slowdown is triggered by the run's own progress (once the lab has
# seen the 60 requests of the warm-up and the first 2 measured seconds: 2 users every 100 ms), not by a sleep that a
# slow start-up would shift; the 4 s after it leave room for a late trigger.
# e2e: light (iterations short of the rate forced by the lab's slowdown, 20/s)
source "$OPENLOOP_E2E_LIB"
start_lab --workers 4 --service 1ms
slow() {
  for _ in $(seq 500); do  # ≤ 10 s
    if (($(lab_query .arrivals) >= 60)); then
      curl -sS -X POST -d '{"service":"300ms"}' "$LAB_URL/_lab/config" >/dev/null
      return 0
    fi
    sleep 0.02
  done
}
slow &
slower=$!
code=0
"$OPENLOOP" run "$LAB_URL/" --vus 2 --pacing 100ms --warmup 1s --duration 6s --json "$E2E_TMP/r.json" >"$E2E_TMP/out.txt" || code=$?
wait "$slower"
r=$E2E_TMP/r.json
# A pacing run is judged on the generator's own CPU and errors only: nothing here may make it INVALID.
[[ $code == 0 ]] || fail "exit $code: $(jq -c .verdict.reasons "$r" 2>/dev/null)"
[[ $(json "$r" .model) == pacing ]] || fail "model pacing"
[[ $(lab_query .config.service) == 300ms ]] || fail "the slowdown was never applied"
assert_conserved "$r"
assert_cmp "$(json "$r" .summary.flows.configured_iterations_per_s)" == 20 "2 users every 100 ms = 20/s"
# Kept within the shortfall rule's own tolerance (5 %, less one iteration): a loaded machine may start one late.
assert_cmp "$(json "$r" '.intervals[0].flows.iterations')" ">=" 18 "fast service: the pace is kept"
assert_cmp "$(json "$r" '.summary.flows.shortfall_intervals_s | length')" ">=" 2 "slow service: shortfall named"
assert_cmp "$(json "$r" '.summary.flows.shortfall_intervals_s[0]')" ">=" 2 "no shortfall before the slowdown"
grep -q 'not the load configured' "$E2E_TMP/out.txt" || fail "summary says the load applied was not the load configured"
pass "pacing shortfall reported for intervals $(jq -c .summary.flows.shortfall_intervals_s "$r")"
