# A run that meets its SLOs exits 0 and prints the table right after the verdict; the results file holds every SLO
# with its measured value, and --abort-on-slo does not stop a run that can still pass.
source "$(dirname "$0")/lib.sh"
start_lab --workers 8 --service 2ms
# --max-lateness 10ms: this test is about what SLOs do to the exit code, and 50/s leaves 20 ms between arrivals;
# this VM wakes a thread idle that long 1.5-3 ms late at p99 (stop 48: 3 of 3 runs INVALID at the default bound of
# 2 ms on a quiet host, and slo.fail skipped). A host worse than that is still retried, then skipped (lib.sh).
run_openloop "$E2E_TMP/out.txt" run "$LAB_URL/" --rate 50/s --duration 3s -q --max-lateness 10ms \
  --json "$E2E_TMP/r.json" \
  --html "$E2E_TMP/r.html" --slo 'p99<=200ms' --slo 'p99.9<1s' --slo 'mean<100ms' --slo 'max<=2s' \
  --slo 'errors<=0.1%' --slo 'timeouts<1%' --slo 'dropped<1%' --slo 'goodput>=99%' --slo 'throughput>=40/s' \
  --slo 'GET /:p50<=100ms' --abort-on-slo
[[ $CODE == 0 ]] || fail "exit $CODE, expected 0: $(cat "$E2E_TMP/out.txt")"
r=$E2E_TMP/r.json
[[ $(jq '.slos | length' "$r") == 10 ]] || fail "10 SLOs in the results"
[[ $(jq '[.slos[] | select(.met and .evaluated)] | length' "$r") == 10 ]] || fail "every SLO met: $(jq -c .slos "$r")"
[[ $(jq -r '.verdict.aborted_by_slo // "none"' "$r") == none ]] || fail "not aborted"
assert_cmp "$(json "$r" .summary.duration_s)" ">=" 2.9 "the whole run ran"
assert_cmp "$(json "$r" '.slos[0].measured')" "<" 200 "p99 measured in ms"
[[ $(json "$r" '.slos[9].request') == "GET /" ]] || fail "per-request SLO names its request"
# The table comes right after the verdict and the target's outcome (and the relaxed bound's note).
sed -n 2p "$E2E_TMP/out.txt" | grep -q '^the target: ' || fail "the target's outcome under the verdict: $(head -5 "$E2E_TMP/out.txt")"
sed -n 3p "$E2E_TMP/out.txt" | grep -q '^  send-lateness bound relaxed to 10ms by --max-lateness' ||
  fail "the relaxed bound said under the outcome: $(head -5 "$E2E_TMP/out.txt")"
sed -n 4p "$E2E_TMP/out.txt" | grep -q '^SLOs: all 10 met' ||
  fail "table after the verdict: $(head -5 "$E2E_TMP/out.txt")"
grep -qE '^  p99<=200ms +[0-9.]+(µs|ms) +<= 200ms +met$' "$E2E_TMP/out.txt" || fail "p99 row: $(cat "$E2E_TMP/out.txt")"
grep -q 'Service-level objectives: all 10 met' "$E2E_TMP/r.html" || fail "HTML report has the SLO section"
# A report of the file shows the same table.
"$OPENLOOP" report "$r" | grep -q '^SLOs: all 10 met' || fail "openloop report shows the SLOs"
pass "SLOs met: $(jq -c '[.slos[] | {slo, measured_text}]' "$r")"
