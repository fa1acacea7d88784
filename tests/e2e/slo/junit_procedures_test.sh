# --junit on ramp and probe metastable (virtual time: --simulate, deterministic, seconds): each file is valid
# against the JUnit schema (tests/report/junit.xsd); the ramp's has a case per --slo (met at the capacity step:
# passed; never met: failed), `capacity` passed and `ramp verdict` passed; the probe's has its baseline SLO and
# `probe verdict` failing with the verdict (RECOVERED-AT-LOWER-LOAD), as its exit code 1 says.
# e2e: parallel-safe (no timing judged: see tests/e2e/CMakeLists.txt)
source "$OPENLOOP_E2E_LIB"
require_tools xmllint jq
xsd="$(cd "$(dirname "$0")/../.." && pwd)/report/junit.xsd"
[[ -s $xsd ]] || fail "schema $xsd missing"
cd "$E2E_TMP"
xpath() { xmllint --xpath "string($2)" "$1"; }
valid() { xmllint --noout --schema "$xsd" "$1" 2>lint.txt || fail "$1 is not valid JUnit: $(cat lint.txt)"; }

code=0
timeout 100 "$OPENLOOP" ramp http://127.0.0.1:9/ --simulate '--workers 4 --service 5ms' --from 400/s --step-add 100/s \
  --to 1100/s --hold 3s --warmup 1s --slo 'p99<=50ms' --slo 'p50<=1ms' -q --json r.json --junit r.xml >r.txt 2>&1 ||
  code=$?
[[ $code == 1 ]] || fail "ramp exit $code, expected 1 (p50<=1ms is met by no step: no capacity): $(cat r.txt)"
valid r.xml
[[ $(xpath r.xml 'count(//testcase)') == 4 ]] || fail "ramp cases: $(cat r.xml)"
[[ -z $(xpath r.xml '//testcase[@name="SLO p99<=50ms"]/failure/@message') ]] || fail "p99<=50ms met at some step"
[[ -n $(xpath r.xml '//testcase[@name="SLO p50<=1ms"]/failure/@message') ]] || fail "p50<=1ms not failed"
[[ -n $(xpath r.xml '//testcase[@name="capacity"]/failure/@message') ]] || fail "capacity not failed (no step passed)"
[[ $(xpath r.xml 'count(//testcase[@name="ramp verdict"]/failure)') == 0 ]] || fail "ramp verdict failed"
pass "ramp --junit: valid; SLO met and not met, capacity failed with exit 1, verdict passed"

code=0
timeout 100 "$OPENLOOP" ramp http://127.0.0.1:9/ --simulate '--workers 4 --service 5ms' --from 400/s --step-add 100/s \
  --to 1100/s --hold 3s --warmup 1s -q --junit r0.xml >r0.txt 2>&1 || code=$?
[[ $code == 0 ]] || fail "ramp exit $code, expected 0: $(cat r0.txt)"
valid r0.xml
[[ $(xpath r0.xml 'count(//failure)') == 0 ]] || fail "a failure with exit 0: $(cat r0.xml)"
[[ $(xpath r0.xml 'count(//testcase[@name="capacity"])') == 1 ]] || fail "no capacity case"
pass "ramp --junit with a capacity: every case passes, exit 0"

code=0
"$OPENLOOP" probe metastable http://127.0.0.1:9/ --simulate '--workers 4 --service 100ms' --base 36/s \
  --trigger load:120/s --trigger-for 3s --baseline-for 4s --observe-for 6s --window 3s --warmup 1s --descend 1 \
  --descend-step 80% --descend-for 12s --timeout 30s --slo 'p99<=1s' -q --json p.json --junit p.xml >p.txt 2>&1 ||
  code=$?
[[ $code == 1 ]] || fail "probe exit $code, expected 1: $(cat p.txt)"
valid p.xml
[[ $(xpath p.xml '//testcase[@name="probe verdict"]/failure/@message') == *RECOVERED-AT-LOWER-LOAD* ]] ||
  fail "probe verdict case: $(cat p.xml)"
[[ $(xpath p.xml 'count(//testcase)') == 2 ]] || fail "probe cases (one SLO, the verdict): $(cat p.xml)"
pass "probe --junit: valid; the verdict case fails with RECOVERED-AT-LOWER-LOAD"
