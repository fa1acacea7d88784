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

# A step INVALID for late sends, every time: one connection, requests queued for it (--on-saturation queue) behind
# a 30 ms service while arrivals come every 25 ms, so each send waits longer than the one before. The verdict names
# the wait for a free connection, not the host's timers: a floor is given (OPENLOOP_TIMER_FLOOR_US) that would
# otherwise take the blame. Step 1 is judged while the run goes on, step 2 after it: the ramp's sentences and the
# report's, judged again from the file, must agree (the live results carry the floor the file records).
stop_lab
start_lab --workers 1 --service 30ms
code=0
OPENLOOP_TIMER_FLOOR_US=5000 "$OPENLOOP" ramp "$LAB_URL/" --from 40/s --step-add 40/s --max-steps 2 --hold 2s \
  --warmup 1s --stop-at never --threads 1 --deadline 500ms --max-connections 1 --on-saturation queue \
  --spin-below 0 --json late.json -q >late.txt 2>late.err || code=$?
[[ $code == 3 ]] || fail "ramp with late sends: exit $code, expected 3 (no valid step): $(cat late.err late.txt)"
for n in 1 2; do
  grep -qE "step $n \(.*\) INVALID: [0-9.]+% of sends .* waited for a free stream/connection .*raise --max-connections" \
    late.txt || fail "the ramp's step $n does not name the wait for a free connection: $(cat late.txt)"
done
jq -e '[.steps[].reasons[] | select(test("waited for a free stream/connection"))] | length == 2' late.json >/dev/null ||
  fail "late.json: the steps' reasons do not name the slot waits: $(jq -c '[.steps[].reasons]' late.json)"
! grep -q "timer floor p99 5ms" late.txt || fail "queued sends blamed on the timer floor: $(cat late.txt)"
jq -e '.runs[0].environment.timer_floor.p99_us == 5000' late.json >/dev/null || fail "late.json: floor not recorded"
"$OPENLOOP" report late.json >late-again.txt 2>report.err || fail "report late.json: exit $?: $(cat report.err)"
diff late.txt late-again.txt >diff.txt || fail "the re-rendered late steps differ from the ramp's: $(cat diff.txt)"
pass "a step INVALID for queued sends names the slot waits, not the timer floor, in the ramp and in report late.json"
