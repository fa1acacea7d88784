# `openloop report` re-renders a ramp's file: the same table and findings the ramp printed (each step judged again from
# the runs in the file), its HTML report, or the file itself; formats of one run's results are refused with the reason.
source "$OPENLOOP_E2E_LIB"
start_lab --workers 4 --service 1ms
cd "$E2E_TMP"
code=0
"$OPENLOOP" ramp "$LAB_URL/" --from 40/s --step-add 40/s --max-steps 2 --hold 2s --warmup 1s --stop-at never \
  --threads 1 --deadline 500ms --json ramp.json -q >table.txt 2>ramp.err || code=$?
# 0: a capacity was found; 1: no step passed; 3: no valid step (a loaded machine's lateness). The file is what matters.
[[ $code == 0 || $code == 1 || $code == 3 ]] || fail "ramp exit $code: $(cat ramp.err)"
[[ $(json ramp.json .schema) == openloop.ramp/1 ]] || fail "ramp.json schema"

"$OPENLOOP" report ramp.json >again.txt 2>report.err || fail "report ramp.json: exit $?: $(cat report.err)"
diff table.txt again.txt >diff.txt || fail "the re-rendered table differs from the ramp's: $(cat diff.txt)"
pass "report ramp.json prints the ramp's table and findings again ($(wc -l <again.txt) lines)"

"$OPENLOOP" report ramp.json -f html -o again.html || fail "report ramp.json -f html: exit $?"
grep -q '<html' again.html && grep -q 'ramp.json' again.html || fail "again.html is not the ramp's report"
"$OPENLOOP" report ramp.json -f json | jq -e '.schema == "openloop.ramp/1"' >/dev/null || fail "report -f json"
pass "report ramp.json renders html and json"

code=0
"$OPENLOOP" report ramp.json -f csv >out.txt 2>&1 || code=$?
[[ $code == 2 ]] || fail "report ramp.json -f csv: exit $code, expected 2"
grep -q 'a ramp file (ramp.json) renders as text, html or json' out.txt || fail "csv refusal: $(cat out.txt)"
jq '.settings.from_rps = "fast"' ramp.json >bad.json
code=0
"$OPENLOOP" report bad.json >out.txt 2>&1 || code=$?
[[ $code == 2 ]] || fail "report bad.json: exit $code, expected 2"
grep -q 'bad.json: /settings/from_rps: expected a number, found string' out.txt || fail "bad settings: $(cat out.txt)"
pass "report refuses other formats and a broken ramp file, naming the reason"
