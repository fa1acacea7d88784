# --junit: a run with one met and one failed SLO gives a JUnit report, valid against the common schema
# (tests/report/junit.xsd), with a passing case for the met SLO, a failure naming the measured value and the
# bound for the other, the verdict passing and the target's '&' escaped; an INVALID run (2 connections for
# 100/s of 30 ms requests) fails its verdict case naming the reasons (dropped, sent share); a --junit path that
# cannot be written is refused before any request is sent (exit 2).
# e2e: light (the JUnit file's cases; the INVALID run forced by 2 connections)
source "$(dirname "$0")/lib.sh"
require_tools xmllint
xsd="$(cd "$(dirname "$0")/../.." && pwd)/report/junit.xsd"
[[ -s $xsd ]] || fail "schema $xsd missing"
# xpath FILE EXPR: the string value of EXPR in FILE.
xpath() { xmllint --xpath "string($2)" "$1"; }

start_lab --workers 8 --service 30ms
j=$E2E_TMP/slo.xml
# --max-lateness 200ms: this test is about the report, and 50/s leaves 20 ms between arrivals; a busy machine's
# send lateness would otherwise make the run INVALID (exit 3) and say nothing about the SLO cases.
run_openloop "$E2E_TMP/out.txt" run "$LAB_URL/?a=1&b=2" --rate 50/s --duration 3s -q --max-lateness 200ms \
  --slo 'p99<=10ms' --slo 'goodput>=80%' --junit "$j"
[[ $CODE == 1 ]] || fail "exit $CODE, expected 1 (p99 SLO failed): $(cat "$E2E_TMP/out.txt")"
xmllint --noout --schema "$xsd" "$j" 2>"$E2E_TMP/lint.txt" || fail "not valid JUnit: $(cat "$E2E_TMP/lint.txt")"
[[ $(xpath "$j" '/testsuites/testsuite/@tests') == 3 ]] || fail "3 cases (2 SLOs + verdict): $(cat "$j")"
[[ $(xpath "$j" '/testsuites/testsuite/@failures') == 1 ]] || fail "1 failure: $(cat "$j")"
[[ $(xpath "$j" '/testsuites/testsuite/@errors') == 0 ]] || fail "no error: $(cat "$j")"
msg=$(xpath "$j" '//testcase[@name="SLO p99<=10ms"]/failure/@message')
# A busy host's send lateness can be most of that p99: the failure then says so (e2e.slo.generator_lateness).
[[ $msg =~ ^p99\<=10ms:\ measured\ ([0-9.]+)ms,\ bound\ \<=\ 10ms(\ \([0-9]+%\ of\ this\ p99\ is\ openloop\'s\ own\ send\ lateness\ .*\))?$ ]] ||
  fail "p99 failure message: '$msg'"
assert_cmp "${BASH_REMATCH[1]}" ">=" 30 "p99 measured at least the 30 ms service time"
[[ $(xpath "$j" 'count(//testcase[@name="SLO goodput>=80%"]/*[self::failure or self::error])') == 0 ]] ||
  fail "goodput>=80% is met: $(cat "$j")"
[[ $(xpath "$j" 'count(//testcase[@name="SLO goodput>=80%"])') == 1 ]] || fail "goodput case present: $(cat "$j")"
[[ $(xpath "$j" 'count(//testcase[@name="run verdict"]/*[self::failure or self::error])') == 0 ]] ||
  fail "the run is VALID: $(cat "$j")"
[[ $(xpath "$j" '//property[@name="target"]/@value') == "$LAB_URL/?a=1&b=2" ]] || fail "target property"
grep -qF '?a=1&amp;b=2' "$j" || fail "the '&' of the target is escaped: $(cat "$j")"
assert_cmp "$(xpath "$j" '//property[@name="offered_rps"]/@value')" ">=" 45 "offered rate property"
[[ $(xpath "$j" '//property[@name="duration_s"]/@value') == 3 ]] || fail "duration property"
pass "met and failed SLOs as JUnit cases, valid against the schema"

# INVALID: the verdict case fails and names the reasons.
j=$E2E_TMP/invalid.xml
code=0
"$OPENLOOP" run "$LAB_URL/" --rate 100/s --duration 2s -q --max-connections 2 --slo 'p99<=10ms' --junit "$j" \
  >"$E2E_TMP/invalid.txt" 2>&1 || code=$?
[[ $code == 3 ]] || fail "invalid run: exit $code, expected 3: $(cat "$E2E_TMP/invalid.txt")"
xmllint --noout --schema "$xsd" "$j" 2>"$E2E_TMP/lint.txt" || fail "not valid JUnit: $(cat "$E2E_TMP/lint.txt")"
msg=$(xpath "$j" '//testcase[@name="run verdict"]/failure/@message')
[[ $msg == "INVALID: dropped "*"the connection pool was full"* ]] || fail "verdict failure message: '$msg'"
text=$(xpath "$j" '//testcase[@name="run verdict"]/failure')
grep -qE '^- dropped [0-9]+ of [0-9]+ intended requests' <<<"$text" || fail "reason 'dropped' listed: $text"
grep -qE '^- sent [0-9]+ of [0-9]+ intended requests' <<<"$text" || fail "reason 'sent' listed: $text"
pass "INVALID run: the verdict case fails listing its reasons"

# A path that cannot be written: refused before the run, nothing sent.
before=$(lab_query .arrivals)
code=0
"$OPENLOOP" run "$LAB_URL/" --rate 100/s --duration 2s -q --junit "$E2E_TMP/missing/dir/j.xml" \
  >"$E2E_TMP/bad.txt" 2>&1 || code=$?
[[ $code == 2 ]] || fail "unwritable --junit: exit $code, expected 2: $(cat "$E2E_TMP/bad.txt")"
grep -qF -- '--junit' "$E2E_TMP/bad.txt" || fail "the message names --junit: $(cat "$E2E_TMP/bad.txt")"
[[ $(lab_query .arrivals) == "$before" ]] || fail "requests were sent before the path was refused"
pass "an unwritable --junit path exits 2 before any request"
