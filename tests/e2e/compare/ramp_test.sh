# openloop compare on two ramp files (ramp --simulate, virtual time, deterministic): against a lab 20 % slower
# (service 6 ms instead of 5 ms: capacity 667/s instead of 800/s) the capacity is flagged, decreased with its
# interval from the two brackets, and --fail-on 'capacity<-5%' exits 1 while 'capacity<-50%' passes; a ramp
# against itself is no significant difference (a -10 % gate passes, a -5 % gate finer than its steps is
# inconclusive); --json (kind ramp), --html (the p99-by-rate chart) and
# --junit (valid against tests/report/junit.xsd, a case per gate) are written; a ramp with a run file, a percentile
# gate on ramps and ramps of different plans exit 2 naming the input.
# e2e: parallel-safe (no timing judged: see tests/e2e/CMakeLists.txt)
source "$OPENLOOP_E2E_LIB"
require_tools jq xmllint
xsd="$(cd "$(dirname "$0")/../.." && pwd)/report/junit.xsd"
[[ -s $xsd ]] || fail "schema $xsd missing"
cd "$E2E_TMP"

ramp() {
  timeout 100 "$OPENLOOP" ramp http://127.0.0.1:9/ --simulate "--workers 4 --service $2" --from 400/s \
    --step-add 50/s --to "${3:-1100/s}" --hold 3s --warmup 1s -q --json "$1" >"$1.txt" 2>&1 || true
  [[ -s $1 ]] || fail "no $1: $(cat "$1.txt")"
}
ramp base.json 5ms
ramp slow.json 6ms
ramp other.json 5ms 900/s

code=0
"$OPENLOOP" compare base.json slow.json --fail-on 'capacity<-5%' --fail-on 'capacity<-50%' --json c.json \
  --html c.html --junit c.xml >out.txt 2>&1 || code=$?
[[ $code == 1 ]] || fail "exit $code, expected 1 (capacity gate): $(cat out.txt)"
grep -q '^finding: capacity -[0-9.]* % \[-[0-9.]* %, -[0-9.]* %\], significant' out.txt || fail "finding: $(cat out.txt)"
[[ $(jq -r .kind c.json) == ramp ]] || fail "kind"
cap() { jq -r ".rates[] | select(.name == \"capacity\") | $1" c.json; }
[[ $(cap .direction) == decreased ]] || fail "capacity direction $(cap .direction)"
assert_cmp "$(cap .baseline.rps)" "==" "$(jq .findings.capacity.rps base.json)" "baseline capacity as its ramp file"
assert_cmp "$(cap .candidate.rps)" "==" "$(jq .findings.capacity.rps slow.json)" "candidate capacity as its ramp file"
# The true change is 667/800 − 1 = −16.7 %: inside the interval, which lies below 0.
assert_cmp "$(cap .low)" "<=" -0.167 "interval's low end below the true change"
assert_cmp "$(cap .high)" ">=" -0.167 "interval's high end above the true change"
assert_cmp "$(cap .high)" "<" 0 "interval wholly below no change"
[[ $(jq '[.fail_on[] | select(.failed)] | length' c.json) == 1 ]] || fail "one gate of two failed: $(jq .fail_on c.json)"
[[ $(jq -r '.fail_on[] | select(.text == "capacity<-50%") | .failed' c.json) == false ]] || fail "-50% gate"
assert_cmp "$(jq '.steps | length' c.json)" ">=" 5 "p99 compared at the common offered rates"
grep -q '<svg' c.html && grep -q 'id="finding"' c.html || fail "HTML lacks the chart or the finding"
! grep -qi '<script' c.html || fail "HTML has a script"
xmllint --noout --schema "$xsd" c.xml 2>lint.txt || fail "not valid JUnit: $(cat lint.txt)"
[[ $(xmllint --xpath 'count(//testcase)' c.xml) == 2 && $(xmllint --xpath 'count(//testcase/failure)' c.xml) == 1 ]] ||
  fail "JUnit: $(cat c.xml)"
pass "20 % slower: capacity $(cap .change) [$(cap .low), $(cap .high)], gate -5 % failed, -50 % passed; JSON, HTML, JUnit"

"$OPENLOOP" compare base.json base.json --fail-on 'capacity<-10%' >same.txt 2>&1 || fail "itself: exit $?: $(cat same.txt)"
grep -q '^finding: capacity and knees: no significant difference; p99 higher at 0 and lower at 0' same.txt ||
  fail "itself: $(cat same.txt)"
grep -q 'capacity<-10%: .*passed' same.txt || fail "itself, -10 % gate: $(cat same.txt)"
# Steps 50/s apart bracket a capacity within about 6.7 %: a -5 % gate cannot be decided (inconclusive), which
# fails by default and passes with --inconclusive pass; the message says what would decide it.
code=0
"$OPENLOOP" compare base.json base.json --fail-on 'capacity<-5%' --json same.json >same5.txt 2>&1 || code=$?
[[ $code == 1 ]] || fail "itself, -5 % gate: exit $code, expected 1 (inconclusive): $(cat same5.txt)"
[[ $(jq -r '.fail_on[0].outcome' same.json) == inconclusive ]] || fail "outcome: $(jq .fail_on same.json)"
grep -q 'inconclusive, .*--refine' same5.txt || fail "itself, -5 % gate message: $(cat same5.txt)"
"$OPENLOOP" compare base.json base.json --fail-on 'capacity<-5%' --inconclusive pass -q ||
  fail "--inconclusive pass: exit $?"
pass "a ramp against itself: no significant difference; -10 % passed, -5 % inconclusive (exit 1, or 0 with --inconclusive pass)"

expect2() {
  local want=$1 code=0
  shift
  "$OPENLOOP" compare "$@" >out.txt 2>&1 || code=$?
  [[ $code == 2 ]] || fail "compare $*: exit $code, expected 2: $(cat out.txt)"
  grep -qF -- "$want" out.txt || fail "compare $*: message lacks '$want': $(cat out.txt)"
}
"$OPENLOOP" simulate http://127.0.0.1/ --rate 100/s -d 2s --lab '--workers 1 --service 1ms' -q --json run.json \
  >run.txt 2>&1 || true
[[ -s run.json ]] || fail "no run.json: $(cat run.txt)"
expect2 "base.json is a ramp file and run.json is not" base.json run.json
expect2 "base.json is a ramp file and run.json is not" run.json base.json
expect2 "their gate is capacity" base.json slow.json --fail-on 'p99>+10%'
expect2 "base.json (plan " base.json other.json
"$OPENLOOP" compare base.json other.json --allow-different-plans -q || [[ $? == 1 ]] || fail "--allow-different-plans"
pass "a ramp with a run, a percentile gate on ramps, ramps of different plans: exit 2 naming them"
