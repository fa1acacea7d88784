#!/usr/bin/env bash
# lib_test.sh: the assertion helpers of tests/e2e/lib.sh refuse what is not there. A missing JSON field (jq's null),
# an empty value or a word must fail assert_cmp, assert_near, check, json, lab_query and assert_conserved; numbers
# in every form jq prints must pass. Each case runs in a subshell, as a test would call the helper.
# e2e: parallel-safe
# Code in single quotes is run later on purpose (SC2016); LAB_URL and E2E_MISSING_ENDS_TEST are read by lib.sh (SC2034).
# shellcheck disable=SC2016,SC2034,SC2015
# Each helper call below runs in a subshell that must fail alone: a missing value ends only that subshell here
# (the default, ending the whole test, is checked in a child script at the end).
E2E_MISSING_ENDS_TEST=0
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"

# must_fail DESCRIPTION CMD...: CMD (a helper call, in a subshell) must end the test with a FAIL line.
must_fail() {
  local what=$1 code=0
  shift
  ("$@") >"$E2E_TMP/case.out" 2>"$E2E_TMP/case.err" || code=$?
  ((code != 0)) || fail "$what: passed, expected a failure (stdout: $(cat "$E2E_TMP/case.out"))"
  grep -q '^FAIL: ' "$E2E_TMP/case.err" || fail "$what: exit $code without a FAIL line: $(cat "$E2E_TMP/case.err")"
  pass "$what fails: $(grep -m1 '^FAIL: ' "$E2E_TMP/case.err")"
}

# must_pass DESCRIPTION CMD...: CMD must return 0 without a FAIL line.
must_pass() {
  local what=$1 code=0
  shift
  ("$@") >"$E2E_TMP/case.out" 2>"$E2E_TMP/case.err" || code=$?
  ((code == 0)) || fail "$what: exit $code, expected to pass: $(cat "$E2E_TMP/case.err")"
  pass "$what passes"
}

# assert_cmp: both sides must be numbers.
must_fail "assert_cmp null '>=' 1" assert_cmp null '>=' 1 "a missing field"
must_fail "assert_cmp null '<' 1" assert_cmp null '<' 1 "a missing field"
must_fail "assert_cmp '' '>=' 1" assert_cmp "" '>=' 1 "an empty value"
must_fail "assert_cmp '' '<=' 1" assert_cmp "" '<=' 1 "an empty value"
must_fail "assert_cmp 2 '>=' null (the bound missing)" assert_cmp 2 '>=' null "a missing bound"
must_fail "assert_cmp 0x10 '>' 1 (hexadecimal)" assert_cmp 0x10 '>' 1 "hexadecimal"
must_fail "assert_cmp nan '==' nan" assert_cmp nan '==' nan "not a number"
must_fail "assert_cmp '5 ms' '<' 10 (a unit)" assert_cmp '5 ms' '<' 10 "a unit"
must_fail "assert_cmp 1 '>=' 2" assert_cmp 1 '>=' 2 "false"
must_fail "assert_cmp 2 '=' 2 (an unknown operator)" assert_cmp 2 '=' 2 "unknown operator"
must_fail "assert_cmp without a message" assert_cmp 2 '>=' 1
must_pass "assert_cmp 2 '>=' 1" assert_cmp 2 '>=' 1 "integers"
must_pass "assert_cmp 1e3 '>' 5" assert_cmp 1e3 '>' 5 "an exponent"
must_pass "assert_cmp 1e+30 '>' 1e29" assert_cmp 1e+30 '>' 1e29 "jq's exponent"
must_pass "assert_cmp 2.5E-05 '<' 0.001" assert_cmp 2.5E-05 '<' 0.001 "a negative exponent"
must_pass "assert_cmp -0.5 '<' 0" assert_cmp -0.5 '<' 0 "a negative decimal"
must_pass "assert_cmp -3 '<=' -3" assert_cmp -3 '<=' -3 "a negative integer"
must_pass "assert_cmp .5 '==' 0.5" assert_cmp .5 '==' 0.5 "a bare fraction"
must_pass "assert_cmp 10 '>' 9 (numerically, not as strings)" assert_cmp 10 '>' 9 "numbers, not strings"
# Whole numbers are compared by bash itself: base 10 whatever their leading zeros, signs kept.
must_pass "assert_cmp 010 '==' 10 (not octal)" assert_cmp 010 '==' 10 "base 10"
must_pass "assert_cmp 09 '<' 10 (not an octal error)" assert_cmp 09 '<' 10 "base 10"
must_pass "assert_cmp -08 '<' -7" assert_cmp -08 '<' -7 "negative, base 10"
must_fail "assert_cmp -3 '>' 2" assert_cmp -3 '>' 2 "false"
must_fail "assert_cmp 20 '==' 21" assert_cmp 20 '==' 21 "false"
must_pass "assert_cmp 1234567890123456 '>' 999999999999999 (past 15 digits: awk)" \
  assert_cmp 1234567890123456 '>' 999999999999999 "long"

# assert_near: three numbers, within the tolerance.
must_fail "assert_near '' '' 1e-9 (both missing)" assert_near "" "" 1e-9 "both missing"
must_fail "assert_near null 0 1" assert_near null 0 1 "a missing field"
must_fail "assert_near 1 1.1 0.05" assert_near 1 1.1 0.05 "too far"
must_pass "assert_near 1 1.0000000001 1e-9" assert_near 1 1.0000000001 1e-9 "close"
must_pass "assert_near -2 -2.0011 0.0011" assert_near -2 -2.001 0.0011 "negative"

# check: an awk condition of numbers only.
must_fail "check 'null > 0'" check "null > 0" "a missing field"
must_fail "check 'null < 5'" check "null < 5" "a missing field (awk reads it as 0)"
must_fail "check ' < 5' (an empty operand)" check " < 5" "an empty value"
must_fail "check '1 > 2'" check "1 > 2" "false"
must_pass "check '1e3 > 5 && -0.5 < 0'" check "1e3 > 5 && -0.5 < 0" "numbers in every form"
must_pass "check '4000 * 1.05 >= 4200'" check "4000 * 1.05 >= 4200" "arithmetic"

# json: a value that is not there fails; false and 0 are values.
cat >"$E2E_TMP/r.json" <<'JSON'
{"a": 1, "f": false, "z": 0, "s": "x", "n": null, "empty": [], "list": [1, 2], "half": [1, null], "big": 1e30}
JSON
must_fail "json of a missing field" json "$E2E_TMP/r.json" .missing
must_fail "json of a null field" json "$E2E_TMP/r.json" .n
must_fail "json of an empty array iterated" json "$E2E_TMP/r.json" '.empty[]'
must_fail "json of a select matching nothing" json "$E2E_TMP/r.json" '.list[] | select(. > 5)'
must_fail "json with a null among its values" json "$E2E_TMP/r.json" '.half[]'
must_fail "json of a missing file" json "$E2E_TMP/none.json" .a
must_fail "json of a bad expression" json "$E2E_TMP/r.json" '.a |||'
for expr in .a .f .z .s .big '.list[]' '.empty | length' '.n | type'; do
  must_pass "json $expr" json "$E2E_TMP/r.json" "$expr"
done
[[ $(json "$E2E_TMP/r.json" .f) == false && $(json "$E2E_TMP/r.json" .z) == 0 ]] || fail "json of false and 0"
[[ $(json "$E2E_TMP/r.json" '.list[]' | paste -sd,) == 1,2 ]] || fail "json of several values"
[[ $(json_or_null "$E2E_TMP/r.json" .missing) == null ]] || fail "json_or_null of a missing field is null"
must_fail "json_or_null of a missing file" json_or_null "$E2E_TMP/none.json" .a
pass "json prints false, 0 and several values; json_or_null prints null"
# Several values to a reader that stops at its first match (grep -q): the writer must not die of SIGPIPE, which
# pipefail would report as a failure (written line by line, 44 of 200 did; 50 tries miss that with p < 1e-5).
echo '{"reasons": ["dropped 98.00% > 1%", "sent 2.00% < 99%", "send lateness p99 56.754ms > 1.000ms"]}' >"$E2E_TMP/v.json"
for _ in $(seq 50); do
  json "$E2E_TMP/v.json" '.reasons[]' | grep -q dropped || fail "json | grep -q of the first of several values failed"
done
pass "json | grep -q: 50 of 50"
# The same for 601 values (16 KB): written line by line, grep -q would leave hundreds of writes to fail; 10 tries.
jq -n '{reasons: (["dropped 98.00% > 1%"] + [range(600) | "filler reason number \(.)"])}' >"$E2E_TMP/v.json"
for _ in $(seq 10); do
  json "$E2E_TMP/v.json" '.reasons[]' | grep -q dropped || fail "json | grep -q of the first of 601 values failed"
done
[[ $(json "$E2E_TMP/v.json" '.reasons[]' | wc -l) == 601 ]] || fail "json printed every one of 601 values"
pass "json | grep -q of 601 values: 10 of 10"

# What a caller receives from a missing value inside $(...): no assertion can pass on it.
must_fail "x=\$(json of a missing field)" eval 'x=$(json "$E2E_TMP/r.json" .missing)'
missing=$(json "$E2E_TMP/r.json" .missing 2>/dev/null) || true
[[ $missing == "$E2E_MISSING" ]] || fail "json of a missing field prints '$missing' inside \$(...), expected $E2E_MISSING"
must_fail "assert_cmp on a missing json value" assert_cmp "$(json "$E2E_TMP/r.json" .missing 2>/dev/null)" '>=' 0 "x"
must_fail "check on a missing json value" check "$(json "$E2E_TMP/r.json" .missing 2>/dev/null) < 5" "x"
for test in '[[ $missing -eq 0 ]]' '[[ $missing -le 5 ]]' '(( missing < 5 ))' '(( $missing < 5 ))'; do
  code=0
  bash -c "set -euo pipefail; missing=$missing; $test && echo reached; echo reached" >"$E2E_TMP/case.out" 2>&1 ||
    code=$?
  ((code != 0)) && ! grep -q reached "$E2E_TMP/case.out" ||
    fail "bash arithmetic on a missing value must stop the script: $test gave $(cat "$E2E_TMP/case.out")"
done
pass "bash arithmetic on $E2E_MISSING stops the script under set -u"

# lab_query reads the lab's stats as json reads a file (here a file:// URL stands in for the lab).
mkdir -p "$E2E_TMP/_lab"
echo '{"arrivals": 7, "cache": {"ratio": 0.75}}' >"$E2E_TMP/_lab/stats"
LAB_URL=file://$E2E_TMP
must_pass "lab_query .arrivals" lab_query .arrivals
[[ $(lab_query .cache.ratio) == 0.75 ]] || fail "lab_query .cache.ratio"
must_fail "lab_query of a missing field" lab_query .cache.size
LAB_URL=file://$E2E_TMP/nowhere
must_fail "lab_query without an answer" lab_query .arrivals

# assert_conserved: every count a number, and intended = the five outcomes, in total and per interval.
counts='"intended": 10, "completed": 6, "timeouts": 1, "errors": 1, "dropped": 1, "unfinished": 1'
echo "{\"summary\": {\"counts\": {$counts}}, \"intervals\": [{\"counts\": {$counts}}]}" >"$E2E_TMP/ok.json"
must_pass "assert_conserved on conserved counts" assert_conserved "$E2E_TMP/ok.json"
echo "{\"summary\": {}, \"intervals\": []}" >"$E2E_TMP/bad.json"
must_fail "assert_conserved without summary counts" assert_conserved "$E2E_TMP/bad.json"
echo "{\"summary\": {\"counts\": {$counts}}}" >"$E2E_TMP/bad.json"
must_fail "assert_conserved without intervals" assert_conserved "$E2E_TMP/bad.json"
echo "{\"summary\": {\"counts\": {$counts}}, \"intervals\": [{\"counts\": {\"intended\": 3}}]}" >"$E2E_TMP/bad.json"
must_fail "assert_conserved with an interval's counts missing" assert_conserved "$E2E_TMP/bad.json"
echo "{\"summary\": {\"counts\": {${counts/10/11}}}, \"intervals\": []}" >"$E2E_TMP/bad.json"
must_fail "assert_conserved with a count lost" assert_conserved "$E2E_TMP/bad.json"

# By default a missing value ends the whole test wherever it is read: two absences compared inside [[ ]], and a
# background subshell, both stop the script (a child script here, with its own EXIT trap).
cat >"$E2E_TMP/child.sh" <<'CHILD'
source "$OPENLOOP_E2E_LIB"
echo '{"a": 1}' >"$E2E_TMP/c.json"
case $2 in
  compare) [[ $(json "$E2E_TMP/c.json" .x) == $(json "$E2E_TMP/c.json" .y) ]] && echo "compared equal" ;;
  background) (json "$E2E_TMP/c.json" .x >/dev/null) & wait $! || true ;;
  number) assert_cmp "$(json "$E2E_TMP/c.json" .a)" == 1 "present" ;;
esac
echo "reached the end"
CHILD
for how in compare background; do
  code=0
  E2E_MISSING_ENDS_TEST=1 OPENLOOP_E2E_LIB=${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh} \
    bash "$E2E_TMP/child.sh" "$OPENLOOP" "$how" >"$E2E_TMP/child.out" 2>&1 || code=$?
  ((code != 0)) && ! grep -q 'compared equal\|reached the end' "$E2E_TMP/child.out" ||
    fail "a missing value read in a $how subshell must end the test: exit $code, $(cat "$E2E_TMP/child.out")"
  grep -q '^FAIL: .*no value at \.x' "$E2E_TMP/child.out" || fail "$how: the failure names the value: $(cat "$E2E_TMP/child.out")"
done
E2E_MISSING_ENDS_TEST=1 OPENLOOP_E2E_LIB=${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh} \
  bash "$E2E_TMP/child.sh" "$OPENLOOP" number >"$E2E_TMP/child.out" 2>&1 || fail "a present value: $(cat "$E2E_TMP/child.out")"
grep -q 'reached the end' "$E2E_TMP/child.out" || fail "a present value: $(cat "$E2E_TMP/child.out")"
pass "a missing value ends the whole test, even compared with another absence or read in a background subshell"

# assert_complete_results (its six values read with one jq): a whole file passes; each missing part fails.
whole="{\"schema\": \"openloop.results/1\", \"verdict\": {\"valid\": true}, \"summary\": {\"counts\": {$counts},
  \"response_time_ms\": {\"p50\": 1}}, \"intervals\": [{\"counts\": {$counts}}]}"
echo "$whole" >"$E2E_TMP/whole.json"
must_pass "assert_complete_results on a whole file" assert_complete_results "$E2E_TMP/whole.json" 1
must_fail "assert_complete_results with 2 intervals expected" assert_complete_results "$E2E_TMP/whole.json" 2
for broken in '.schema = "x"' 'del(.schema)' 'del(.verdict)' '.summary.counts.intended = "10"' \
  'del(.summary.response_time_ms)' 'del(.intervals)' '.intervals[0].counts.timeouts = 2' 'del(.summary.counts.dropped)'; do
  jq "$broken" "$E2E_TMP/whole.json" >"$E2E_TMP/broken.json"
  must_fail "assert_complete_results after $broken" assert_complete_results "$E2E_TMP/broken.json" 1
done
must_fail "assert_complete_results of no file" assert_complete_results "$E2E_TMP/none.json" 1

# probe_metastable runs an INCONCLUSIVE probe once more, unless it names the generator's lateness alone and the
# verdict it would read without it matches PROBE_ACCEPTED_WOULD_READ (a stand-in openloop prints the probe's text).
cat >"$E2E_TMP/fake-openloop" <<'FAKE'
#!/bin/sh
echo x >>"$FAKE_CALLS"
printf '%b\n' "$FAKE_TEXT"
exit 3
FAKE
chmod +x "$E2E_TMP/fake-openloop"
gen="INCONCLUSIVE: the generator's send lateness could have decided the verdict (send-lateness p99 3.88ms > 1ms)"
would="  note: without the generator's lateness the verdict would read:"
# tries TEXT REGEX: how many runs probe_metastable made (its exit must be 3 either way).
tries() {
  local code=0
  : >"$E2E_TMP/calls"
  (cd "$E2E_TMP" && OPENLOOP=$E2E_TMP/fake-openloop FAKE_CALLS=$E2E_TMP/calls FAKE_TEXT=$1 \
    PROBE_ACCEPTED_WOULD_READ=$2 probe_metastable x >/dev/null) || code=$?
  [[ $code == 3 ]] || fail "probe_metastable returned $code, expected the probe's 3"
  wc -l <"$E2E_TMP/calls"
}
[[ $(tries "$gen\n$would RECOVERED 1s after the trigger ended: ..." '^RECOVERED ') == 1 ]] ||
  fail "an accepted RECOVERED behind the lateness was run again"
[[ $(tries "$gen\n$would METASTABLE: did not recover ..." '^RECOVERED ') == 2 ]] ||
  fail "a METASTABLE behind the lateness, RECOVERED accepted, was not run again"
[[ $(tries "$gen\n$would RECOVERED 1s after the trigger ended: ..." '') == 2 ]] ||
  fail "without PROBE_ACCEPTED_WOULD_READ an INCONCLUSIVE probe was not run again"
[[ $(tries "$gen\nINCONCLUSIVE: the baseline was not steady\n$would RECOVERED 1s after" '^RECOVERED ') == 2 ]] ||
  fail "an unsteady baseline was not run again"
[[ $(tries "$gen\n$would RECOVERED 4s after the trigger ended" '^RECOVERED ([0-2](\.[0-9]+)?|3(\.0+)?)s after') == 2 ]] ||
  fail "RECOVERED 4s after, at most 3 s accepted, was not run again"
[[ $(tries "$gen\n$would RECOVERED 2.5s after the trigger ended" '^RECOVERED ([0-2](\.[0-9]+)?|3(\.0+)?)s after') == 1 ]] ||
  fail "RECOVERED 2.5s after, at most 3 s accepted, was run again"
pass "probe_metastable keeps a first try only for the lateness alone with an accepted verdict behind it"
