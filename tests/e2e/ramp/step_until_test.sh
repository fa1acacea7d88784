# ramp --fresh --step-until against the lab (1,000 workers, a constant 500-ms service; 400/s is ρ 0.2): a step whose
# p50 ±10 % its samples reach within a few seconds ends before its 10-s cap (on a window at least --hold long); a
# step asked for p99.99 ±0.1 % holds to its 3-s cap and says it was not met, with how much longer it would need.
# Why 500 ms and constant: response time counts from the intended send time, so a loaded host's send lateness
# (bursts of it, hundreds of ms at p99) spreads it around its median. Over an exponential 2-ms service the p50
# stayed out of reach for the whole 10 s once (±11 % on 4,000 samples; ±67 % on 2,800 at load average 15); over a
# constant service the spread is the lateness's alone, over a larger median the longer the service: at load
# average 16, ±0.85 % on 4,000 samples over 200 ms and ±0.57 % over 500 ms side by side, and a starved moment
# (workers waiting 44 % of their time for a CPU) spread 200 ms to ±9.3 %. What is checked is the stop rule on real
# sockets, not how fast a distribution settles.
# The JSON holds both, and `openloop report` on the ramp file shows them again. The stop rule itself is unit-tested
# (tests/procedures/ramp_until_test.cpp) and on virtual time (tests/sim/ramp_step_until_test.cpp).
source "$OPENLOOP_E2E_LIB"
command -v jq >/dev/null || { echo "SKIP: jq is not installed"; exit 77; }
start_lab --workers 1000 --service 500ms
# One worker thread leaves the other core to the lab; --max-lateness tolerates a busy CI machine's late wake-ups.
ramp() {
  timeout 60 "$OPENLOOP" ramp "$LAB_URL/" --from 400/s --to 400/s --warmup 1s --hold 2s --fresh -t 1 \
    --max-lateness 50ms "$@"
}
code=0
ramp --step-until 'p50:±10%' --step-max-hold 10s --json "$E2E_TMP/met.json" >"$E2E_TMP/met.txt" \
  2>"$E2E_TMP/met.err" || code=$?
# Exit 0 (the step passed), 1 (it did not: a finding about the lab, not about --step-until, which is what is
# checked here) or 3 only when the step's run was INVALID for the generator's own schedule (a machine too busy to
# send on time, e.g. under parallel builds), never for anything else.
accept_step() { # CODE FILE WHAT
  [[ $1 == 0 || $1 == 1 ]] && return 0
  [[ $1 == 3 ]] || fail "$3: exit $1: $(cat "$E2E_TMP/$3.txt" "$E2E_TMP/$3.err")"
  jq '.runs[0]' "$2" >"$E2E_TMP/$3.run.json"
  only_schedule_reasons "$E2E_TMP/$3.run.json" ||
    fail "$3: INVALID for a reason other than the generator's schedule: $(jq -c '.runs[0].verdict.reasons' "$2")"
  echo "note: $3: INVALID only for the generator's schedule: $(jq -c '.runs[0].verdict.reasons' "$2") ($(uptime))"
}
accept_step "$code" "$E2E_TMP/met.json" met
echo "--- met"; cat "$E2E_TMP/met.txt"
r=$E2E_TMP/met.json
[[ $(jq '.steps | length' "$r") == 1 ]] || fail "one step"
[[ $(json "$r" .settings.step_until[0]) == 'p50:±10%' ]] || fail "settings.step_until"
[[ $(json "$r" .settings.step_max_hold_s) == 10 ]] || fail "settings.step_max_hold_s"
# The run stopped on the in-run (naive) judgement; the step's final one is on its effective sample size, so it may
# say "not met" only when the step's samples were correlated (a busy machine's stalls), and then says why.
if [[ $(json "$r" .steps[0].until[0].met) != true ]]; then
  [[ $(json "$r" .steps[0].response_time_ms.independence.correlated) == true ]] ||
    fail "p50 ±10 % not met on an uncorrelated step: $(json "$r" .steps[0].until[0].sentence)"
  echo "note: stopped on the naive judgement, not met on the effective n: $(json "$r" .steps[0].response_time_ms.correlation)"
fi
held=$(json "$r" .steps[0].window.measured_s)
assert_cmp "$held" ">=" 1.999 "the step held at least --hold"
assert_cmp "$held" "<" 8 "the step ended well before its 10-s cap"
# The run itself ended soon after the step's window, and a ramp's own stop is not an interruption.
assert_cmp "$(json "$r" .runs[0].summary.duration_s)" "<" 9 "the step's run ended before its cap"
[[ $(json "$r" .runs[0].verdict.interrupted) == false ]] || fail "the ramp's own stop is not an interruption"
jq -r '.runs[0].warnings[]' "$r" | grep -q 'every --step-until target held' || fail "the run says why it ended"
grep -q -- 'held .* s; --step-until ' "$E2E_TMP/met.err" || fail "the step line says how --step-until ended"
grep -q 'step 1 (400/s, held .*): .*p50 ±10 %' "$E2E_TMP/met.txt" || fail "the summary's --step-until block"

code=0
ramp --step-until 'p99.99:±0.1%' --step-max-hold 3s --json "$E2E_TMP/cap.json" >"$E2E_TMP/cap.txt" \
  2>"$E2E_TMP/cap.err" || code=$?
accept_step "$code" "$E2E_TMP/cap.json" cap
echo "--- cap"; cat "$E2E_TMP/cap.txt"
r=$E2E_TMP/cap.json
[[ $(json "$r" .steps[0].until[0].met) == false ]] || fail "p99.99 ±0.1 % cannot be met in 3 s"
assert_cmp "$(json "$r" .steps[0].window.measured_s)" ">=" 2.999 "held to the 3-s cap"
more=$(json "$r" .steps[0].until[0].more_seconds)
assert_cmp "$more" ">" 3 "extrapolated beyond the cap"
json "$r" .steps[0].until[0].sentence | grep -q 'would need about' || fail "the sentence extrapolates"
grep -q 'not met: p99.99 ±0.1 %' "$E2E_TMP/cap.err" || fail "the step line says not met"

# Read back: the report recomputes the steps from the runs and judges the targets again.
code=0
"$OPENLOOP" report "$r" >"$E2E_TMP/report.txt" 2>&1 || code=$?
[[ $code == 0 ]] || fail "report: exit $code: $(cat "$E2E_TMP/report.txt")"
grep -q 'not enough samples for p99.99 ±0.1 %' "$E2E_TMP/report.txt" || fail "report shows the outcome: $(cat "$E2E_TMP/report.txt")"

# Without --fresh the steps are one planned run: refused, naming both flags, nothing sent.
code=0
"$OPENLOOP" ramp "$LAB_URL/" --from 400/s --hold 2s --step-until 'p99:±5%' >"$E2E_TMP/out" 2>"$E2E_TMP/err" || code=$?
[[ $code == 2 ]] || fail "--step-until without --fresh: exit $code, expected 2"
grep -q -- '--step-until: needs --fresh' "$E2E_TMP/err" || fail "names both flags: $(cat "$E2E_TMP/err")"
pass "p50 ±10 %: the step stopped after $held s (cap 10 s); p99.99 ±0.1 % not met at the 3-s cap, about $more more seconds"
