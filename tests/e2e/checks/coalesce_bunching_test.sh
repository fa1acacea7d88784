# --coalesce with a window ten times the mean gap sends arrivals in bunches: the arrival check fails and says so
# ("sends bunched"); with --accept-bunching the same finding is reported but left out of the verdict.
# e2e: parallel-safe (the bunching forced by a 5 ms coalescing window)
source "$OPENLOOP_E2E_LIB"
require_tools jq
start_lab
run() {
  local name=$1 code=0
  shift
  "$OPENLOOP" run "$LAB_URL/" --rate 2000/s --arrival poisson --duration 2s --threads 1 --coalesce 5ms \
    --max-lateness 1s --slo none --json "$E2E_TMP/$name.json" "$@" >"$E2E_TMP/$name.txt" || code=$?
  echo "$code"
}
code=$(run bunched)
r=$E2E_TMP/bunched.json
assert_cmp "$code" == 3 "INVALID"
reason=$(jq -r '.verdict.reasons[] | select(startswith("arrival process: "))' "$r")
grep -qE '^arrival process: sends bunched: [0-9]+ % of gaps under [0-9.]+µs where the plan has 9\.5 %' <<<"$reason" ||
  fail "reason: $(jq -c .verdict.reasons "$r")"
assert_cmp "$(json "$r" '.checks.arrivals.lanes[0].bunched')" ">" 0.5 "most gaps bunched (ten arrivals per 5 ms)"

code=$(run accepted --accept-bunching)
r=$E2E_TMP/accepted.json
[[ $(json "$r" .checks.arrivals.passed) == false ]] || fail "the check itself still fails"
[[ $(json "$r" .checks.arrivals.accepted) == true ]] || fail "accepted not recorded"
[[ $(jq '[.verdict.reasons[] | select(startswith("arrival process"))] | length' "$r") == 0 ]] ||
  fail "accepted bunching still in the verdict: $(jq -c .verdict.reasons "$r")"
accept_invalid_only_for "$code" "$r" '^generator CPU'
grep -q '^checks: arrivals ✗ (A² .*; accepted)' "$E2E_TMP/accepted.txt" || fail "summary: $(grep checks: "$E2E_TMP/accepted.txt")"
pass "coalescing far beyond the gap is bunching unless accepted"
