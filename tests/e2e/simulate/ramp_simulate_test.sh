# ramp --simulate: the knee of a 4-worker service (exp:5ms: capacity 800/s) found in virtual time, the ramp's
# JSON labelled simulated; a bad lab option refused with exit 2 before any step.
# e2e: parallel-safe (no timing judged: see tests/e2e/CMakeLists.txt)
source "$OPENLOOP_E2E_LIB"
url=http://127.0.0.1:9/  # only a label: nothing is sent
set +e
"$OPENLOOP" ramp "$url" --from 200/s --step-add 100/s --to 1200/s --hold 10s --warmup 2s \
  --simulate '--workers 4 --service exp:5ms' --json "$E2E_TMP/ramp.json" -q >"$E2E_TMP/out.txt" 2>&1
code=$?
set -e
[[ $code == 0 ]] || fail "ramp --simulate exit $code: $(tail -n 5 "$E2E_TMP/out.txt")"
r=$E2E_TMP/ramp.json
[[ $(json "$r" .simulated) == true ]] || fail "ramp JSON not labelled simulated"
[[ $(json "$r" .service_model.workers) == 4 ]] || fail "service model not recorded"
# One capacity: the sentence, the JSON and the table's mark name the highest step that passed (700/s), with the
# first failing step (800/s) as the bracket's top, never the midpoint 750/s no step ran.
grep -q 'Capacity 700/s: the highest step that met every SLO steadily; the first that did not, 800/s, is 14.3% above it' \
  "$E2E_TMP/out.txt" || fail "capacity: $(grep -i capacity "$E2E_TMP/out.txt" | head -n 2)"
assert_cmp "$(json "$r" .findings.capacity.rps)" "==" 700 "capacity in the JSON"
assert_cmp "$(json "$r" .findings.capacity.high_rps)" "==" 800 "the bracket's top in the JSON"
mark=$(jq -r '[.steps[] | select(.offered_rps == 700)][0].number' "$r")
grep -Eq "^ *$mark .*capacity" "$E2E_TMP/out.txt" || fail "the table marks step $mark (700/s): $(cat "$E2E_TMP/out.txt")"
pass "simulated ramp: capacity 700/s (met), the first failing step 800/s above it, the 800/s the model can serve"

set +e
"$OPENLOOP" ramp "$url" --from 200/s --hold 10s --simulate '--wrokers 4' --json "$E2E_TMP/bad.json" >"$E2E_TMP/out.txt" 2>&1
code=$?
set -e
[[ $code == 2 ]] || fail "bad --simulate exit $code, expected 2"
grep -qF 'unknown lab option "--wrokers"' "$E2E_TMP/out.txt" || fail "message: $(cat "$E2E_TMP/out.txt")"
[[ ! -e $E2E_TMP/bad.json ]] || fail "a refused ramp wrote its JSON"
pass "bad --simulate refused before any step"
