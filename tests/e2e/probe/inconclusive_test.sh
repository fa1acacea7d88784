# A base load above the target's capacity has no steady baseline to compare with: the probe says INCONCLUSIVE
# (exit 3), names the unsteady baseline, and does not call the system metastable. On virtual time (probe
# --simulate): the procedure's logic, deterministic, in well under a second.
# e2e: parallel-safe (no timing judged: see tests/e2e/CMakeLists.txt)
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
# Capacity 40/s (1 worker × 25 ms); a base of 60/s builds a backlog from the first second.
cd "$E2E_TMP"
code=0
"$OPENLOOP" probe metastable http://127.0.0.1:9/ --simulate '--workers 1 --service 25ms' --base 60/s \
  --trigger load:120/s --trigger-for 2s --baseline-for 4s --observe-for 3s --window 3s --warmup 1s --timeout 2s \
  --json p.json -q >p.txt 2>p.err || code=$?
cat p.txt
[[ $code == 3 ]] || fail "probe exit $code (expected 3, INCONCLUSIVE): $(cat p.err)"
[[ $(json p.json .verdict) == INCONCLUSIVE ]] || fail "verdict $(json p.json .verdict)"
[[ $(json p.json '.runs[0].baseline.steady') == false ]] || fail "the baseline should be judged unsteady"
grep -q 'baseline was not steady' p.txt || fail "the reason names the unsteady baseline"
pass "base above capacity (simulated): INCONCLUSIVE, baseline not steady"
