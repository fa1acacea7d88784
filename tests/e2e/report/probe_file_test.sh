# `openloop report` re-renders a probe's file: the same phase tables and verdict the probe printed (text), the same
# HTML page it wrote (--html beside the text, or -f html), or the file itself; other formats and a broken file are
# refused with the reason.
# e2e: parallel-safe (the file re-rendered, whatever the probe's verdict)
source "$OPENLOOP_E2E_LIB"
# Capacity 200/s (2 workers × 10 ms); the spike at 2× is shed by a bounded queue.
start_lab --workers 2 --service 10ms --queue-limit 20
cd "$E2E_TMP"
code=0
"$OPENLOOP" probe metastable "$LAB_URL/" --base 40/s --trigger load:400/s --trigger-for 1s --baseline-for 2s \
  --observe-for 3s --window 1s --warmup 0s --timeout 1s --threads 1 --json p.json --html p.html -q >p.txt 2>p.err ||
  code=$?
# 0 RECOVERED, 1 METASTABLE / at lower load, 3 INCONCLUSIVE (a loaded machine): the file is what this test reads.
[[ $code == 0 || $code == 1 || $code == 3 ]] || fail "probe exit $code: $(cat p.err)"
[[ $(json p.json .schema) == openloop.probe/1 ]] || fail "schema"
grep -q '^phase ' p.txt || fail "the probe printed its phase table: $(cat p.txt)"

"$OPENLOOP" report p.json >again.txt 2>report.err || fail "report p.json: exit $?: $(cat report.err)"
diff p.txt again.txt >diff.txt || fail "the re-rendered report differs from the probe's: $(cat diff.txt)"
pass "report p.json prints the probe's phase tables and verdict again ($(wc -l <again.txt) lines)"

"$OPENLOOP" report p.json --html again.html >again2.txt || fail "report p.json --html: exit $?"
diff p.txt again2.txt >/dev/null || fail "with --html the text still goes to standard output"
cmp -s p.html again.html || fail "the re-rendered HTML differs from the probe's ($(wc -c <p.html) vs $(wc -c <again.html) bytes)"
"$OPENLOOP" report p.json -f html -o again3.html || fail "report p.json -f html: exit $?"
cmp -s p.html again3.html || fail "-f html differs from the probe's page"
"$OPENLOOP" report p.json -f json | jq -e '.schema == "openloop.probe/1"' >/dev/null || fail "report -f json"
pass "report p.json renders the probe's own HTML page (byte for byte) and its json"

code=0
"$OPENLOOP" report p.json -f csv >out.txt 2>&1 || code=$?
[[ $code == 2 ]] || fail "report p.json -f csv: exit $code, expected 2"
grep -q 'a probe file (p.json) renders as text, html or json' out.txt || fail "csv refusal: $(cat out.txt)"
jq '.runs[0].verdict = "FINE"' p.json >bad.json
code=0
"$OPENLOOP" report bad.json >out.txt 2>&1 || code=$?
[[ $code == 2 ]] || fail "report bad.json: exit $code, expected 2"
grep -q 'bad.json: /runs/0/verdict: "FINE" is not a verdict' out.txt || fail "bad verdict: $(cat out.txt)"
jq '.probe.window_s = "long"' p.json >bad.json
code=0
"$OPENLOOP" report bad.json --html x.html >out.txt 2>&1 || code=$?
[[ $code == 2 ]] || fail "report bad.json --html: exit $code, expected 2"
grep -q 'bad.json: /probe/window_s: expected a number, found string' out.txt || fail "bad settings: $(cat out.txt)"
[[ ! -e x.html ]] || fail "nothing written for a broken file"
pass "report refuses other formats and a broken probe file, naming the reason"
