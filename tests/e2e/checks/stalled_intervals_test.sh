# A lab that freezes for 300 ms every second makes consecutive response times depend on each other: the
# independence check flags it and the percentile intervals come out wider than the ones independence would give.
# e2e: parallel-safe (the correlation forced by a lab frozen 300 ms of every second)
source "$OPENLOOP_E2E_LIB"
require_tools jq
start_lab --stall 300ms/1s
code=0
"$OPENLOOP" run "$LAB_URL/" --rate 500/s --arrival poisson --duration 4s --threads 1 --slo none \
  --json "$E2E_TMP/r.json" >"$E2E_TMP/out.txt" || code=$?
r=$E2E_TMP/r.json
accept_invalid_only_for "$code" "$r" '^send lateness'
[[ $(json "$r" .checks.independence.tested) == true ]] || fail "independence not tested"
[[ $(json "$r" .checks.independence.correlated) == true ]] || fail "not flagged: $(jq -c .checks.independence "$r")"
assert_cmp "$(json "$r" .checks.independence.vanish_lag)" ">" 10 "correlated over many requests"
# p50: both sides exist with 2,000 samples; the interval on the effective n is wider than the naive one.
wide=$(jq '.checks.response_time[0] | .high_ns - .low_ns' "$r")
naive=$(jq '.checks.response_time[0] | .naive_high_ns - .naive_low_ns' "$r")
assert_cmp "$wide" ">" "$naive" "p50 interval widened"
grep -q '^checks: .*independence ✗ (samples correlated at lag' "$E2E_TMP/out.txt" ||
  fail "summary: $(grep checks: "$E2E_TMP/out.txt")"
pass "a stalled lab's samples are flagged as correlated and their intervals widened"
