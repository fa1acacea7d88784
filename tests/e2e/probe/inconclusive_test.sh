# A base load above the target's capacity has no steady baseline to compare with: the probe says INCONCLUSIVE
# (exit 3), names the unsteady baseline, and does not call the system metastable.
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
# Capacity 40/s (1 worker × 25 ms); a base of 60/s builds a backlog from the first second.
start_lab --workers 1 --service 25ms
cd "$E2E_TMP"
code=0
"$OPENLOOP" probe metastable "$LAB_URL/" --base 60/s --trigger load:120/s --trigger-for 2s --baseline-for 4s \
  --observe-for 3s --window 3s --warmup 1s --timeout 2s --threads 1 --json p.json -q >p.txt 2>p.err || code=$?
cat p.txt
[[ $code == 3 ]] || fail "probe exit $code (expected 3, INCONCLUSIVE): $(cat p.err)"
[[ $(json p.json .verdict) == INCONCLUSIVE ]] || fail "verdict $(json p.json .verdict)"
[[ $(json p.json '.runs[0].baseline.steady') == false ]] || fail "the baseline should be judged unsteady"
grep -q 'baseline was not steady' p.txt || fail "the reason names the unsteady baseline"
pass "base above capacity: INCONCLUSIVE, baseline not steady"
