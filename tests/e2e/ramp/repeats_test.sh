# `ramp --fresh --repeat 2` against the lab (4 workers x 5 ms, far below its 800/s): two steps, each run twice with
# its own seed and the lab reset before every run but the first; every repeat kept in the JSON with the spread, the
# step judged on its slower repeat (the upper median of 2); the terminal, the HTML, `report` and `compare` show it.
# About 12 s: 4 runs of 0.5 s warm-up + 2 s hold, 0.2 s cooldowns and resets.
source "$OPENLOOP_E2E_LIB"
require_tools jq
start_lab --workers 4 --service 5ms
code=0
timeout 60 "$OPENLOOP" ramp "$LAB_URL/" --from 100/s --step-add 100/s --to 200/s --hold 2s --warmup 500ms \
  --fresh --repeat 2 --cooldown 200ms --seed 7 --slo 'p99<=100ms' -t 1 --max-lateness 50ms \
  --json "$E2E_TMP/ramp.json" --html "$E2E_TMP/ramp.html" >"$E2E_TMP/out.txt" 2>"$E2E_TMP/err.txt" || code=$?
r=$E2E_TMP/ramp.json
# On a loaded machine a repeat may miss its send schedule even with --max-lateness 50ms: that alone may make every
# step INVALID (exit 3); each INVALID repeat must say so.
if [[ $code == 3 ]]; then
  jq -e '[.steps[].repeats[] | select(.state == "INVALID") | .reasons[]
          | select(test("^send lateness") | not)] | length == 0' "$r" >/dev/null ||
    fail "INVALID for another reason: $(jq -c '[.steps[].repeats[].reasons]' "$r")"
elif [[ $code != 0 ]]; then
  fail "exit $code: $(cat "$E2E_TMP/out.txt" "$E2E_TMP/err.txt")"
fi
echo "--- stdout"; cat "$E2E_TMP/out.txt"; echo "--- stderr"; cat "$E2E_TMP/err.txt"
assert_cmp "$(json "$r" .settings.repeat)" == 2 "settings.repeat"
assert_cmp "$(json "$r" '.steps | length')" == 2 "two steps"
assert_cmp "$(json "$r" '.runs | length')" == 4 "a run per repeat"
for i in 0 1; do
  s=$(jq ".steps[$i]" "$r")
  assert_cmp "$(jq '.repeats | length' <<<"$s")" == 2 "step $((i + 1)): two repeats kept"
  assert_cmp "$(jq .repeat_summary.completed <<<"$s")" == 2 "step $((i + 1)): completed"
  [[ $(jq .repeat_summary.lab <<<"$s") == true ]] || fail "step $((i + 1)): the lab was found"
  # Each repeat is its own run, in order, with the seed the run carried.
  for k in 0 1; do
    run=$(jq ".repeats[$k].window.run" <<<"$s")
    assert_cmp "$run" == $((2 * i + k)) "step $((i + 1)) repeat $((k + 1)): its run"
    assert_cmp "$(jq ".runs[$run].plan.seed" "$r")" == "$(jq ".repeats[$k].seed" <<<"$s")" "the run's seed"
    reset=$(jq -r ".repeats[$k].lab_reset.state" <<<"$s")
    if [[ $i == 0 && $k == 0 ]]; then want=none; else want=done; fi
    [[ $reset == "$want" ]] || fail "step $((i + 1)) repeat $((k + 1)): lab_reset $reset, expected $want"
  done
  [[ $(jq '.repeats[0].seed != .repeats[1].seed' <<<"$s") == true ]] || fail "the repeats' seeds differ"
  # The step is its slower repeat by p99 (an INVALID one ranks as the slowest): its fields are that repeat's.
  want=$(jq '[.repeats | to_entries[] | {k: .key, invalid: (.value.state == "INVALID"),
              p99: .value.response_time_ms.p99.value}] | sort_by(.invalid, .p99) | .[1].k + 1' <<<"$s")
  assert_cmp "$(jq .repeat_summary.judged_on <<<"$s")" == "$want" "step $((i + 1)): judged on the upper median"
  assert_cmp "$(jq .response_time_ms.p99.value <<<"$s")" == "$(jq ".repeats[$((want - 1))].response_time_ms.p99.value" <<<"$s")" \
    "the step's p99 is its judged repeat's"
  assert_cmp "$(jq '[.repeats[].response_time_ms.p99.value] | max' <<<"$s")" == \
    "$(jq .repeat_summary.response_time.p99.max_ms <<<"$s")" "the spread's max"
  if [[ $(jq '[.repeats[].passes] | unique | length' <<<"$s") == 2 ]]; then
    jq -e '.repeat_summary.disagree | startswith("repeats disagree: #1 ")' <<<"$s" >/dev/null ||
      fail "step $((i + 1)): repeats that pass and fail should say they disagree"
  fi
  [[ $(jq .repeat_summary.response_time.p99.within_run.judged <<<"$s") == false ]] || fail "2 repeats: not judged"
done
[[ $(jq '.steps[0].repeats[1].seed == .steps[1].repeats[1].seed' "$r") == true ]] || fail "repeat k's seed per step"
grep -q '2 of 2 repeats: p99 median' "$E2E_TMP/err.txt" || fail "no spread on the step lines"
grep -q 'lab reset done' "$E2E_TMP/err.txt" || fail "resets not said"
grep -q '^Repeats (each step judged on its upper median repeat' "$E2E_TMP/out.txt" || fail "no Repeats block"
grep -q '<h2>Repeats</h2>' "$E2E_TMP/ramp.html" || fail "no Repeats table in the HTML"
# Read back: the same steps and spread, text and HTML.
"$OPENLOOP" report "$r" >"$E2E_TMP/report.txt" || fail "report exit $?"
grep -q '^  step 2 (200/s): 2 of 2 repeats: p99 median' "$E2E_TMP/report.txt" ||
  fail "report: $(cat "$E2E_TMP/report.txt")"
"$OPENLOOP" report "$r" --format html -o "$E2E_TMP/report.html" || fail "report html exit $?"
grep -q '<h2>Repeats</h2>' "$E2E_TMP/report.html" || fail "report html: no Repeats table"
ccode=0
"$OPENLOOP" compare "$r" "$r" >"$E2E_TMP/compare.txt" 2>&1 || ccode=$?
[[ $ccode == 0 ]] || fail "compare of a repeated ramp with itself: exit $ccode: $(cat "$E2E_TMP/compare.txt")"
pass "2 steps x 2 repeats: $(grep -c 'repeats: p99' "$E2E_TMP/out.txt") spread lines, the lab reset 3 times"
