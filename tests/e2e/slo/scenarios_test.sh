# A scenario file: SLOs are judged on the scenarios together; an SLO naming a request is judged on that request
# across every scenario that sends it; a name the file does not have is refused (exit 2) before anything is sent.
# e2e: light (SLO verdicts per scenario at 5-10/s)
source "$(dirname "$0")/lib.sh"
start_lab --workers 8 --service 2ms
cat >"$E2E_TMP/plan.yaml" <<YAML
target: $LAB_URL
requests:
  fast: GET /fast
  other: GET /other
scenarios:
  a:
    model: open
    rate: 10/s
    duration: 3s
    mix: {fast: 1, other: 1}
  b:
    model: open
    rate: 5/s
    duration: 3s
    request: fast
YAML
run_openloop "$E2E_TMP/out.txt" run "$E2E_TMP/plan.yaml" -q -t 1 --json "$E2E_TMP/r.json" --slo 'fast:p99<=500ms' \
  --slo 'other:errors<=1%' --slo 'fast:throughput>=7/s' --slo 'p99<=500ms'
[[ $CODE == 0 ]] || fail "exit $CODE, expected 0: $(cat "$E2E_TMP/out.txt")"
r=$E2E_TMP/r.json
[[ $(jq '[.slos[] | select(.met)] | length' "$r") == 4 ]] || fail "every SLO met: $(jq -c .slos "$r")"
# fast: about 5/s from a and 5/s from b: only the sum across scenarios reaches 7/s. Low rates keep the send-lateness
# bound (10 % of the mean gap) loose enough for a busy machine.
assert_cmp "$(json "$r" '.slos[2].measured')" ">" 7 "fast judged across both scenarios"
grep -q '^SLOs: all 4 met' "$E2E_TMP/out.txt" || fail "table printed: $(cat "$E2E_TMP/out.txt")"
code=0
"$OPENLOOP" run "$E2E_TMP/plan.yaml" -q --slo 'checkout:p99<=1s' >"$E2E_TMP/bad.txt" 2>&1 || code=$?
[[ $code == 2 ]] || fail "unknown request: exit $code, expected 2"
grep -qF 'no request named "checkout" (its requests: "fast", "other")' "$E2E_TMP/bad.txt" || fail "$(cat "$E2E_TMP/bad.txt")"
pass "scenario SLOs: $(jq -c '[.slos[] | {slo, measured_text}]' "$r")"
