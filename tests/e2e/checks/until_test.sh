# --until: a run past --duration until a percentile's interval is narrow enough. A p50 ±15 % target on a
# fast lab holds after the 2 s minimum, so the run stops long before its 20 s cap (VALID, exit 0, not an
# interruption); a p99.9 ±1 % target cannot hold in a 3 s cap at 200/s, so the run goes to the cap and says how
# much longer it would have needed. Bad targets are refused by name.
source "$OPENLOOP_E2E_LIB"
require_tools jq
start_lab --workers 4 --service exp:1ms
code=0
"$OPENLOOP" run "$LAB_URL/" --rate 500/s --arrival poisson --duration 2s --threads 1 --slo none \
  --until 'p50:±15%' --max-duration 20s --json "$E2E_TMP/met.json" >"$E2E_TMP/met.txt" || code=$?
r=$E2E_TMP/met.json
accept_invalid_only_for "$code" "$r" '^send lateness'
[[ $(json "$r" .verdict.interrupted) == false ]] || fail "verdict says interrupted"
assert_cmp "$(json "$r" .summary.duration_s)" ">=" 2 "ran at least --duration"
assert_cmp "$(json "$r" .summary.duration_s)" "<=" 8 "stopped well before the 20 s cap"
[[ $(json "$r" '.checks.until[0].met') == true ]] || fail "target not met: $(jq -c .checks.until "$r")"
assert_cmp "$(json "$r" '.checks.until[0].achieved')" "<=" 0.15 "half-width within the target"
[[ $(json "$r" '.plan.until[0]') == 'p50:±15%' ]] || fail "plan lacks the target"
grep -q '^until: p50 ±15 %: met' "$E2E_TMP/met.txt" || fail "summary: $(grep until "$E2E_TMP/met.txt")"
pass "p50 ±15 % met after $(json "$r" .summary.duration_s) s of a 20 s cap"

code=0
"$OPENLOOP" run "$LAB_URL/" --rate 200/s --arrival poisson --duration 1s --threads 1 --slo none \
  --until 'p99.9:±1%' --until 'p50:±50%' --max-duration 3s --json "$E2E_TMP/cap.json" >"$E2E_TMP/cap.txt" ||
  code=$?
r=$E2E_TMP/cap.json
accept_invalid_only_for "$code" "$r" '^send lateness'
assert_cmp "$(json "$r" .summary.duration_s)" ">=" 2.9 "ran to the cap"
[[ $(json "$r" '.checks.until[0].met') == false ]] || fail "p99.9 ±1 % cannot hold on 600 samples"
[[ $(json "$r" '.checks.until[1].met') == true ]] || fail "p50 ±50 % holds: $(jq -c .checks.until "$r")"
assert_cmp "$(json "$r" '.checks.until[0].more_seconds')" ">" 3 "needs far more than it had"
grep -qE '^until: not enough samples for p99.9 ±1 %: .*would need about [0-9]+ more seconds at this rate' \
  "$E2E_TMP/cap.txt" || fail "summary: $(grep until "$E2E_TMP/cap.txt")"
pass "at the cap: $(grep 'until: not enough' "$E2E_TMP/cap.txt")"

expect_usage '--until: "p99" has no' "$LAB_URL/" --rate 10/s --duration 1s --until p99 --max-duration 2s
expect_usage '--until: needs --max-duration' "$LAB_URL/" --rate 10/s --duration 1s --until 'p99:±5%'
expect_usage '--max-duration: 1s is shorter than --duration' "$LAB_URL/" --rate 10/s --duration 2s \
  --until 'p99:±5%' --max-duration 1s
expect_usage '--until: applies to an open run at one --rate' "$LAB_URL/" --vus 2 --duration 1s \
  --until 'p99:±5%' --max-duration 2s
expect_usage '--max-duration: applies with --until' "$LAB_URL/" --rate 10/s --duration 1s --max-duration 2s
pass "bad --until usage refused"
