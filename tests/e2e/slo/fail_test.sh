# A run whose p99 misses its SLO exits 1 with the table naming the failure; error statuses count as errors; an
# INVALID run exits 3 even when an SLO failed (its SLOs say nothing about the target).
source "$(dirname "$0")/lib.sh"
start_lab --workers 8 --service 30ms --error-rate 0.05
# --max-lateness 10ms: this test is about what SLOs do to the exit code, and 50/s leaves 20 ms between arrivals;
# this VM wakes a thread idle that long 1.5-3 ms late at p99 (stop 48: 3 of 3 runs INVALID at the default bound of
# 2 ms on a quiet host, and slo.fail skipped). A host worse than that is still retried, then skipped (lib.sh).
run_openloop "$E2E_TMP/out.txt" run "$LAB_URL/" --rate 50/s --duration 4s -q --max-lateness 10ms \
  --json "$E2E_TMP/r.json" \
  --html "$E2E_TMP/r.html" --slo 'p99<=10ms' --slo 'errors<=1%' --slo 'goodput>=80%'
[[ $CODE == 1 ]] || fail "exit $CODE, expected 1: $(cat "$E2E_TMP/out.txt")"
r=$E2E_TMP/r.json
[[ $(json "$r" .verdict.valid) == true ]] || fail "the run itself is VALID: $(jq -c .verdict "$r")"
grep -q '^SLOs: 2 of 3 not met' "$E2E_TMP/out.txt" || fail "table header: $(cat "$E2E_TMP/out.txt")"
# The row's value is the p99 (at least the 30-ms service time, checked in the JSON below; a host's stall of ~20 ms
# made it 52.4 ms once at stop 48).
grep -qE '^  p99<=10ms +[0-9.]+ms +<= 10ms +FAILED$' "$E2E_TMP/out.txt" || fail "p99 row: $(cat "$E2E_TMP/out.txt")"
grep -qE '^  errors<=1% +[0-9.]+% +<= 1% +FAILED$' "$E2E_TMP/out.txt" || fail "5xx count as errors: $(cat "$E2E_TMP/out.txt")"
grep -qE '^  goodput>=80% +9[0-9.]+% +>= 80% +met$' "$E2E_TMP/out.txt" || fail "goodput row: $(cat "$E2E_TMP/out.txt")"
[[ $(json "$r" '.slos[0].met') == false ]] || fail "p99 not met in JSON"
assert_cmp "$(json "$r" '.slos[0].measured')" ">=" 30 "p99 measured at least the 30 ms service time"
assert_cmp "$(json "$r" '.slos[1].measured')" ">" 0.01 "errors share above 1%"
grep -q 'Service-level objectives: 2 of 3 not met' "$E2E_TMP/r.html" || fail "HTML report has the SLO section"

# INVALID takes precedence: 2 connections for 100/s of 30 ms requests drop most arrivals.
code=0
"$OPENLOOP" run "$LAB_URL/" --rate 100/s --duration 2s -q --max-connections 2 --slo 'p99<=10ms' \
  >"$E2E_TMP/invalid.txt" 2>&1 || code=$?
[[ $code == 3 ]] || fail "invalid run: exit $code, expected 3: $(cat "$E2E_TMP/invalid.txt")"
grep -q 'the run is INVALID' "$E2E_TMP/invalid.txt" || fail "the table says the run is INVALID"
pass "p99 over its SLO exits 1; INVALID exits 3"
