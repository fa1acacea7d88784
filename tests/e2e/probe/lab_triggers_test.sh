# Lab triggers through the control endpoint: a stall (the lab freezes, then recovers behind a bounded LIFO queue) and
# a dependency slowdown (+100 ms, undone at the trigger's end). The lab's settings are restored afterwards. Also: bad
# flags exit 2 and send nothing; a lab trigger without a reachable lab is a runtime failure (4). Short phases: the
# outcomes on virtual time are tests/sim/probe_test.cpp; this checks the lab's control endpoint over real sockets.
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
start_lab --workers 2 --service 10ms --queue lifo --queue-limit 50 --shed-at 20
cd "$E2E_TMP"

probe() {  # probe ARGS...: the short probe these checks share
  probe_metastable "$LAB_URL/" --base 20/s --baseline-for 2s --observe-for 3s --window 2s --warmup 1s --timeout 2s \
    --threads 1 --json p.json -q "$@"
}

code=0
# A first try INCONCLUSIVE for the generator's lateness alone, RECOVERED behind it, is kept (probe_metastable): the
# check below accepts it, and a second try (about 7 s) could only be accepted again.
PROBE_ACCEPTED_WOULD_READ='^RECOVERED ' probe --trigger stall:1s || code=$?
cat p.txt
# RECOVERED (exit 0); or, on a machine too loaded for the generator to keep a 5-ms send schedule twice in a row,
# INCONCLUSIVE (exit 3) for that reason alone: the trigger is what this checks (the verdict: tests/sim/probe_test.cpp).
[[ $code == 0 ]] || { [[ $code == 3 ]] && grep -q "the generator's send lateness could have decided the verdict" p.txt; } ||
  fail "stall probe exit $code: $(cat p.err)"
json p.json '.runs[0].lab_actions[0]' | grep -q 'stall-at' || fail "no stall-at request: $(json p.json '.runs[0].lab_actions')"
# The terminal says the lab calls in words (the results file keeps the raw requests).
grep -qE '^  lab: set stall 1s from lab uptime [0-9.]+[a-zµ]+ \(POST http://127\.0\.0\.1:[0-9]+/_lab/config\)$' p.txt ||
  fail "the stall call in words: $(grep 'lab:' p.txt)"
grep -qE '^  lab: restored no stalls scheduled \(POST ' p.txt || fail "the restore in words: $(grep 'lab:' p.txt)"
# --json implies the HTML report beside it; the chart's time series has a legend label of its own.
grep -q "label: 'time'" p.html || fail "p.html missing or its chart's first legend label unnamed"
assert_cmp "$(json p.json '.runs[0].phases[1].stats.p99_ms')" ">=" 500 "the stall shows in the trigger's p99"
[[ $(curl -s --max-time 5 "$LAB_URL/_lab/config" | jq '."stall-at" | length') == 0 ]] || fail "the stall list was not restored"
pass "stall:1s: $(json p.json .verdict), lab stall list restored"

curl -s --max-time 5 -X POST -d '{"dependency":"5ms"}' "$LAB_URL/_lab/config" >/dev/null
code=0
PROBE_ACCEPTED_WOULD_READ='^(RECOVERED|METASTABLE)' probe --trigger dependency:+100ms --trigger-for 1s --observe lab ||
  code=$?
cat p.txt
# This test is about the trigger (raised, visible, restored), not the verdict: on a loaded machine the short
# observe window can end before p99 is back within 1.1 × baseline, which makes the verdict METASTABLE (exit 1); or,
# as for the stall above, INCONCLUSIVE (exit 3) for the generator's send lateness alone, twice in a row (seen on
# the quiet host in stop 47's suite: one wake-up 99.7 ms late at 20/s in each try).
[[ $code == 0 || $code == 1 ]] || { [[ $code == 3 ]] && grep -q "the generator's send lateness could have decided the verdict" p.txt; } ||
  fail "dependency probe exit $code: $(cat p.err)"
json p.json '.runs[0].lab_actions[0]' | grep -q '105ms' || fail "dependency not raised: $(json p.json '.runs[0].lab_actions')"
grep -qE '^  lab: set dependency 105ms \(POST ' p.txt || fail "the dependency call in words: $(grep 'lab:' p.txt)"
grep -qE '^  lab: restored dependency 5ms \(POST ' p.txt || fail "the dependency restore in words: $(grep 'lab:' p.txt)"
assert_cmp "$(json p.json '.runs[0].phases[1].stats.p50_ms')" ">=" 100 "the slower dependency shows during the trigger"
[[ $(curl -s --max-time 5 "$LAB_URL/_lab/config" | jq -r .dependency) == 5ms ]] || fail "dependency not restored"
# --observe on a probe: the terminal summary and `report p.json` both show the observed section, the lab among it.
grep -q '^observed (mean / max of the measured intervals' p.txt || fail "the probe's summary lacks the observed section"
"$OPENLOOP" report p.json >report.txt
grep -q '^observed (mean / max of the measured intervals' report.txt || fail "report p.json lacks the observed section"
grep -qiE '^ *lab' report.txt || fail "the observed section does not name the lab: $(grep -A5 '^observed' report.txt)"
pass "dependency:+100ms: $(json p.json .verdict), restored to 5ms"

for bad in "--trigger load:0/s" "--trigger spike" "--trigger load:100/s --window 300s" "--trigger stall:2s --trigger-for 3s" \
  "--trigger load:100/s --baseline-for 1500ms"; do
  code=0
  # shellcheck disable=SC2086
  "$OPENLOOP" probe metastable "$LAB_URL/" --base 20/s $bad -q >bad.txt 2>bad.err || code=$?
  [[ $code == 2 ]] || fail "\"$bad\": exit $code, expected 2"
  [[ -s bad.err ]] || fail "\"$bad\": no message"
done
code=0
"$OPENLOOP" probe metastable "http://127.0.0.1:$(free_port)/" --base 20/s --trigger stall:1s -q >/dev/null 2>bad.err ||
  code=$?
[[ $code == 4 ]] && grep -q 'lab' bad.err || fail "no lab for a stall trigger: exit $code: $(cat bad.err)"
pass "bad flags exit 2 with a message; an unreachable lab exits 4"
