# openloop compare on two short runs of one plan against the lab, the second made twice as slow (--service through
# POST /_lab/config; repetitions_test.sh measures the error rates over 20 seeded repetitions in virtual time): the
# finding flags p50, --fail-on 'p50>+10%' fails (exit 1), 'p50>+300%' passes and 'goodput<-1%' is inconclusive
# (counted as failed by default, passed with --inconclusive pass); --json, --html (both spectra, no
# script) and --junit (valid against tests/report/junit.xsd, one case per --fail-on) are written; runs of
# different plans, unreadable or foreign files (a probe's; a ramp with a run), bad gates and bad output paths exit 2 naming the input.
# e2e: light (a service time doubled shows in p50; files and refusals)
source "$OPENLOOP_E2E_LIB"
require_tools xmllint
xsd="$(cd "$(dirname "$0")/../.." && pwd)/report/junit.xsd"
[[ -s $xsd ]] || fail "schema $xsd missing"
cd "$E2E_TMP"

start_lab --workers 100 --service lognormal:20ms,0.3 --seed 5
# The runs may be INVALID on a busy machine (send lateness): compare reads them all the same and says so.
run() {
  "$OPENLOOP" run "$LAB_URL/" --rate 300/s --arrival poisson -d "$2" --warmup "$3" --timeout 1s -q --json "$1" \
    >"$1.txt" 2>&1 || true
}
run base.json 3s 1s
curl -sS --max-time 5 -o /dev/null -X POST -d '{"service":"lognormal:40ms,0.3"}' "$LAB_URL/_lab/config"
run slow.json 3s 1s
run other.json 1s 0s
for f in base slow other; do [[ -s $f.json ]] || fail "no $f.json"; done

code=0
# goodput<-1% cannot be decided on ~900 Poisson arrivals a run (their count alone varies by ±3 %): inconclusive, counted
# as passed here (--inconclusive pass), as failed by default (below).
"$OPENLOOP" compare base.json slow.json --percentiles 50,90 --fail-on 'p50>+10%' --fail-on 'p50>+300%' \
  --fail-on 'goodput<-1%' --inconclusive pass --json c.json --html c.html --junit c.xml >out.txt 2>&1 || code=$?
[[ $code == 1 ]] || fail "exit $code, expected 1 (p50 gate): $(cat out.txt)"
grep -q '^finding: p50 +[0-9.]* % \[+[0-9.]* %, +[0-9.]* %\], significant' out.txt || fail "finding: $(cat out.txt)"
[[ $(jq -r .schema c.json) == openloop.compare/1 ]] || fail "schema"
[[ $(jq -r '.response_time[] | select(.percentile == 50) | .judgement' c.json) == increased ]] || fail "p50 judgement"
assert_cmp "$(jq '.response_time[] | select(.percentile == 50) | .change' c.json)" ">" 0.5 "p50 change above 50 %"
[[ $(jq -c '[.fail_on[].failed]' c.json) == '[true,false,false]' ]] || fail "gates: $(jq -c .fail_on c.json)"
[[ $(jq -c '[.fail_on[].outcome]' c.json) == '["fail","pass","inconclusive"]' ]] || fail "outcomes: $(jq -c .fail_on c.json)"
assert_cmp "$(jq '.fail_on[2].longer' c.json)" ">" 1 "the inconclusive gate says how much longer would decide"
grep -q 'goodput<-1%: .*inconclusive.*x as long would decide' out.txt || fail "inconclusive message: $(cat out.txt)"
code=0
"$OPENLOOP" compare base.json slow.json --fail-on 'goodput<-1%' --json d.json -q || code=$?
[[ $code == 1 && $(jq -c '[.fail_on[] | [.outcome, .failed]]' d.json) == '[["inconclusive",true]]' ]] ||
  fail "an inconclusive gate fails by default: exit $code, $(jq -c .fail_on d.json)"
[[ $(json c.json .baseline.plan_hash) == "$(json c.json .candidate.plan_hash)" ]] || fail "same plan"
pass "twice as slow a lab: p50 flagged, gate past +10 % failed, +300 % passed, goodput -1 % inconclusive"

grep -q '<svg' c.html && grep -q 'polyline' c.html || fail "no spectra in c.html"
! grep -q '<script' c.html || fail "c.html has a script"
xmllint --noout --schema "$xsd" c.xml 2>lint.txt || fail "not valid JUnit: $(cat lint.txt)"
[[ $(xmllint --xpath 'count(//testcase)' c.xml) == 3 ]] || fail "cases: $(cat c.xml)"
[[ $(xmllint --xpath 'count(//testcase/failure)' c.xml) == 1 ]] || fail "failures: $(cat c.xml)"
xmllint --xpath 'string(//testcase[failure]/@name)' c.xml | grep -qF 'fail-on p50>+10%' || fail "failed case name"
pass "JSON, HTML and JUnit written"

code=0
"$OPENLOOP" compare base.json base.json -q || code=$?
[[ $code == 0 ]] || fail "a run against itself: exit $code"
"$OPENLOOP" compare base.json base.json | grep -q '^finding: no significant difference' || fail "self: finding"
pass "a run against itself: no significant difference, exit 0"

# expect2 MESSAGE ARGS...: `openloop compare ARGS` exits 2 and says MESSAGE.
expect2() {
  local want=$1 code=0
  shift
  "$OPENLOOP" compare "$@" >out.txt 2>&1 || code=$?
  [[ $code == 2 ]] || fail "compare $*: exit $code, expected 2: $(cat out.txt)"
  grep -qF -- "$want" out.txt || fail "compare $*: message lacks '$want': $(cat out.txt)"
}
expect2 "base.json (plan " base.json other.json
expect2 "other.json (plan " base.json other.json
"$OPENLOOP" compare base.json other.json --allow-different-plans -q || [[ $? == 1 ]] || fail "--allow-different-plans"
expect2 "missing.json" base.json missing.json
printf '{"schema": "openloop.ramp/1"}\n' >ramp.json
expect2 "ramp.json is a ramp file and base.json is not" base.json ramp.json
printf '{"schema": "openloop.probe/1"}\n' >probe.json
expect2 "probe.json: is a openloop.probe/1 file" base.json probe.json
expect2 "a capacity gate compares two ramp files" base.json slow.json --fail-on 'capacity<-5%'
printf '{"schema": "openloop.results/1", "summary": 3}\n' >broken.json
expect2 "broken.json" base.json broken.json
expect2 "--fail-on 'p99>10'" base.json slow.json --fail-on 'p99>10'
expect2 "--confidence" base.json slow.json --confidence 120%
expect2 "--junit" base.json slow.json --junit "$E2E_TMP/no/such/dir/x.xml"
pass "different plans, missing, foreign and broken files, bad gates and output paths: exit 2 naming them"
