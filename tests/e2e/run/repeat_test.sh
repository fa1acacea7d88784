# `run --repeat 3 --cooldown 200ms` against the lab: three repeats, each kept with its own seed and conserved, the
# totals their exact sum, the lab reset before repeats 2 and 3, the spread summary in the JSON and the terminal;
# bad --repeat / --cooldown values exit 2 naming the flag.
# e2e: light (repeats' counts and the lab's resets at 10-50/s)
source "$OPENLOOP_E2E_LIB"
require_tools jq
expect_usage "--repeat: '1' is not a count of repeats: give a whole number from 2 to 100" http://127.0.0.1:9/ --rate 10/s --repeat 1
expect_usage "--repeat: '101' is not a count" http://127.0.0.1:9/ --rate 10/s --repeat 101
expect_usage "--repeat: 'x3' is not a count" http://127.0.0.1:9/ --rate 10/s --repeat x3
expect_usage "--cooldown: has no effect without --repeat N" http://127.0.0.1:9/ --rate 10/s --cooldown 1s
expect_usage "--cooldown" http://127.0.0.1:9/ --rate 10/s --repeat 2 --cooldown soon
expect_usage "--repeat: not supported with --until yet" http://127.0.0.1:9/ --rate 10/s --repeat 2 --until p99:±5% \
  --max-duration 5s

start_lab
code=0
"$OPENLOOP" run "$LAB_URL/" --rate 50/s --duration 1s --threads 1 --repeat 3 --cooldown 200ms --seed 7 \
  --json "$E2E_TMP/r.json" >"$E2E_TMP/out.txt" 2>"$E2E_TMP/err.txt" || code=$?
r=$E2E_TMP/r.json
# On a loaded machine a repeat may miss its send schedule: that alone may make the set INVALID (each reason names
# its repeat).
accept_invalid_only_for "$code" "$r" '^repeat [123]: (send lateness|arrival process: )'
assert_complete_results "$r" 3
assert_cmp "$(json "$r" '.repeats | length')" == 3 "three repeats kept"
for k in 0 1 2; do
  rep=$(jq ".repeats[$k]" "$r")
  jq -e ".schema == \"openloop.results/1\" and .repeat == $((k + 1))" <<<"$rep" >/dev/null || fail "repeat $k header"
  assert_conserved "$r" "[.repeats[$k] | .summary.counts, .intervals[].counts]"
  assert_cmp "$(jq .summary.counts.intended <<<"$rep")" == 50 "repeat $((k + 1)): 50/s x 1 s"
  jq -e '.response_time_intervals.p50 | all(.low_ms, .value_ms, .high_ms; type == "number")
    and .low_ms <= .value_ms and .value_ms <= .high_ms' <<<"$rep" >/dev/null ||
    fail "repeat $((k + 1)): p50 interval $(jq -c .response_time_intervals.p50 <<<"$rep")"
done
assert_cmp "$(json "$r" .summary.counts.intended)" == "$(jq '[.repeats[].summary.counts.intended] | add' "$r")" \
  "total intended = sum of the repeats"
assert_cmp "$(json "$r" .summary.counts.intended)" == 150 "total intended"
assert_cmp "$(jq '.summary.response_time_ms.count' "$r")" == "$(jq '[.repeats[].summary.response_time_ms.count] | add' "$r")" \
  "the totals' histogram holds every repeat's samples"
[[ $(jq '[.repeats[].seed] | unique | length' "$r") == 3 ]] || fail "seeds not distinct: $(jq -c '[.repeats[].seed]' "$r")"
[[ $(json "$r" .plan.seed) == 7 && $(jq -c .plan.repeat_seeds "$r") == "$(jq -c '[.repeats[].seed]' "$r")" ]] ||
  fail "seeds not recorded in the plan"
[[ $(jq -c '[.repeats[].lab_reset.state]' "$r") == '["none","done","done"]' ]] ||
  fail "lab reset: $(jq -c '[.repeats[].lab_reset]' "$r")"
assert_cmp "$(jq '.repeats[1].cooldown_s' "$r")" ">=" 0.2 "cooldown waited"
s=$(jq '.repeat_summary' "$r")
jq -e '.planned == 3 and .completed == 3 and .lab == true and (.variation_dominates | type) == "boolean"' <<<"$s" \
  >/dev/null || fail "repeat_summary: $(jq -c 'del(.response_time)' <<<"$s")"
jq -e '.response_time.p50 | all(.min_ms, .median_ms, .max_ms; type == "number")
  and .min_ms <= .median_ms and .median_ms <= .max_ms and .median_interval.reaches_95 == false
  and .median_interval.confidence == 0.75 and .within_run.repeats == 3' <<<"$s" >/dev/null ||
  fail "p50 spread: $(jq -c .response_time.p50 <<<"$s")"
grep -q '^repeats: 3 of 3, 0.2 s cooldown' "$E2E_TMP/out.txt" || fail "summary: $(cat "$E2E_TMP/out.txt")"
grep -q 'too few repeats for 95 %: 3 needs 6' "$E2E_TMP/out.txt" || fail "summary lacks the too-few note"
# The flag is printed exactly when the JSON raises it.
if [[ $(jq .variation_dominates <<<"$s") == true ]]; then
  grep -q "run-to-run variation dominates: repeat, don't lengthen" "$E2E_TMP/out.txt" || fail "flag not printed"
else
  ! grep -q "run-to-run variation dominates" "$E2E_TMP/out.txt" || fail "flag printed but not in the JSON"
fi
grep -q 'repeat 2/3 (seed [0-9]*), lab reset done' "$E2E_TMP/err.txt" || fail "stderr: $(cat "$E2E_TMP/err.txt")"
# The file reads back (every counter block balances, the intervals add up to the summary).
"$OPENLOOP" report "$r" --html "$E2E_TMP/again.html" >/dev/null || fail "openloop report refused the file"
for page in "$E2E_TMP/r.html" "$E2E_TMP/again.html"; do
  [[ $(grep -c '<table class="latency" id="repeats">' "$page") == 1 && $(grep -c 'id="repeat-spread"' "$page") == 1 ]] ||
    fail "$page: no repeats panel"
done
pass "three repeats kept, conserved, summed; lab reset between them"

# The lab is restarted between repeats: a one-off stall 2 s after the lab's start falls 2 s into every repeat,
# not only into the first (without the restart the second repeat begins after it).
start_lab --workers 1 --service 1ms --stall-at 2s+300ms
code=0
"$OPENLOOP" run "$LAB_URL/" --rate 20/s --duration 3s --threads 1 --repeat 2 --slo none \
  --json "$E2E_TMP/stall.json" >/dev/null 2>"$E2E_TMP/stall.err" || code=$?
accept_invalid_only_for "$code" "$E2E_TMP/stall.json" '^repeat [12]: (send lateness|arrival process: )'
for k in 0 1; do
  assert_cmp "$(jq ".repeats[$k].summary.response_time_ms.max" "$E2E_TMP/stall.json")" ">=" 200 \
    "repeat $((k + 1)) met the lab's stall at 2s (max response time, ms)"
done
stop_lab
pass "every repeat meets the restarted lab's one-off stall"
