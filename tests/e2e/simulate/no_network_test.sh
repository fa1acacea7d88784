# A simulation resolves nothing: simulate, a plan file's simulation, ramp --simulate and probe --simulate run
# against a target whose host can never resolve (.invalid, RFC 6761), as on a machine with no network: the URL
# only labels the simulated service.
# e2e: parallel-safe (no timing judged: see tests/e2e/CMakeLists.txt)
source "$OPENLOOP_E2E_LIB"
cd "$E2E_TMP"
url=http://openloop-e2e.invalid/
lab='--workers 2 --service exp:2ms --seed 3'

no_dns() {  # $1: what ran, $2: its exit code, $3: the code expected; stderr in err.txt
  [[ $2 == "$3" ]] || fail "$1: exit $2, expected $3: $(tail -n 3 err.txt)"
  ! grep -q 'DNS\|cannot resolve' err.txt || fail "$1 resolved its target: $(grep 'DNS\|cannot resolve' err.txt)"
}

code=0
"$OPENLOOP" simulate "$url" --rate 200/s -d 2s --lab "$lab" --json a.json --no-html >out.txt 2>err.txt || code=$?
no_dns "simulate URL" "$code" 0
[[ $(json a.json .simulated) == true ]] || fail "simulate URL: results not labelled simulated"
[[ $(jq -c '.summary.phases.dns_ms' a.json) == null ]] || fail "simulate URL: a DNS phase $(jq -c '.summary.phases' a.json)"
pass "simulate $url: no resolution, results written"

cat >plan.yaml <<PLAN
target: $url
requests:
  home: GET /
scenarios:
  browse: {model: open, rate: 100/s, duration: 2s, request: home}
PLAN
code=0
"$OPENLOOP" simulate plan.yaml --lab "$lab" --json p.json --no-html >out.txt 2>err.txt || code=$?
no_dns "simulate plan.yaml" "$code" 0
[[ $(json p.json .simulated) == true ]] || fail "simulate plan.yaml: results not labelled simulated"
pass "simulate of a plan file whose target cannot resolve: no resolution"

code=0
"$OPENLOOP" ramp "$url" --from 100/s --step-add 100/s --to 300/s --hold 2s --warmup 1s --simulate "$lab" \
  --json r.json -q >out.txt 2>err.txt || code=$?
no_dns "ramp --simulate" "$code" 0
[[ $(json r.json .simulated) == true ]] || fail "ramp --simulate: JSON not labelled simulated"
pass "ramp --simulate against $url: no resolution"

code=0
"$OPENLOOP" probe metastable "$url" --simulate '--workers 4 --service 100ms' --base 36/s --trigger load:120/s \
  --trigger-for 3s --baseline-for 4s --observe-for 6s --window 3s --warmup 1s --timeout 30s --json m.json -q \
  >out.txt 2>err.txt || code=$?
[[ $code != 4 ]] || fail "probe --simulate: exit 4: $(tail -n 3 err.txt)"
no_dns "probe --simulate" "$code" "$code"
[[ $(json m.json .simulated) == true ]] || fail "probe --simulate: JSON not labelled simulated"
pass "probe metastable --simulate against $url: no resolution"
