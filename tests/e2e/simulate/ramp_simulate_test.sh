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
grep -q 'Capacity ≈ 750/s' "$E2E_TMP/out.txt" || fail "capacity: $(grep -i capacity "$E2E_TMP/out.txt" | head -n 2)"
pass "simulated ramp: capacity between 700/s (met) and 800/s (not), below the 800/s the model can serve"

set +e
"$OPENLOOP" ramp "$url" --from 200/s --hold 10s --simulate '--wrokers 4' --json "$E2E_TMP/bad.json" >"$E2E_TMP/out.txt" 2>&1
code=$?
set -e
[[ $code == 2 ]] || fail "bad --simulate exit $code, expected 2"
grep -qF 'unknown lab option "--wrokers"' "$E2E_TMP/out.txt" || fail "message: $(cat "$E2E_TMP/out.txt")"
[[ ! -e $E2E_TMP/bad.json ]] || fail "a refused ramp wrote its JSON"
pass "bad --simulate refused before any step"
