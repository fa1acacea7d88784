# Ctrl-C between a step's repeats ends the ramp with what ran written and exit 130. Robust by construction: the
# signal is sent once the ramp says it reset the lab before the second repeat (not after a sleep), and that
# repeat's 60-s cooldown is far longer than the bound on the exit.
# e2e: light (Ctrl-C sent on an event; exit within 10 s of a 60-s cooldown)
source "$OPENLOOP_E2E_LIB"
require_tools jq
start_lab
"$OPENLOOP" ramp "$LAB_URL/" --from 50/s --to 100/s --step-add 50/s --hold 2s --warmup 0s --fresh --repeat 2 \
  --cooldown 60s -t 1 --max-lateness 50ms --json "$E2E_TMP/r.json" >"$E2E_TMP/out.txt" 2>"$E2E_TMP/err.txt" &
pid=$!
interrupt_on_line "$pid" "$E2E_TMP/err.txt" '^lab reset'
code=$INTERRUPT_CODE
exit_s=$INTERRUPT_EXIT_S
[[ $code == 130 ]] || fail "exit $code, expected 130: $(cat "$E2E_TMP/err.txt")"
assert_cmp "$exit_s" "<" 10 "ended promptly, not after the 60 s cooldown"
r=$E2E_TMP/r.json
[[ $(json "$r" .interrupted) == true ]] || fail "not marked interrupted"
assert_cmp "$(json "$r" '.steps | length')" == 1 "the step with a repeat measured whole is kept"
assert_cmp "$(json "$r" '.steps[0].repeats | length')" == 1 "its one repeat"
assert_cmp "$(json "$r" .steps[0].repeat_summary.planned)" == 2 "planned"
assert_cmp "$(json "$r" .steps[0].repeat_summary.completed)" == 1 "completed"
grep -q '1 of 2 repeats' "$E2E_TMP/out.txt" || fail "summary: $(cat "$E2E_TMP/out.txt")"
pass "interrupted before the second repeat after ${exit_s}s: one repeat written, exit 130"
