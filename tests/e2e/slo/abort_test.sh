# --abort-on-slo: against a lab too slow for the p99 objective, a 20 s run stops within a few seconds, exits 1 (not
# 130), and the results name the SLO that stopped it; still complete, conserved results for the part that ran.
# e2e: light (--abort-on-slo at 20/s against a 50-ms lab)
source "$(dirname "$0")/lib.sh"
start_lab --workers 16 --service 50ms
run_openloop "$E2E_TMP/out.txt" run "$LAB_URL/" --rate 20/s --duration 20s --json "$E2E_TMP/r.json" \
  --slo 'errors<=1%' --slo 'p99<=10ms' --abort-on-slo
[[ $CODE == 1 ]] || fail "exit $CODE, expected 1: $(cat "$E2E_TMP/out.txt")"
assert_cmp "$ELAPSED" "<" 8 "stopped well before 20 s"
r=$E2E_TMP/r.json
[[ $(json "$r" .verdict.aborted_by_slo) == 'p99<=10ms' ]] || fail "results name the SLO: $(jq -c .verdict "$r")"
[[ $(json "$r" .verdict.interrupted) == false ]] || fail "an SLO abort is not an interruption"
assert_cmp "$(json "$r" .summary.duration_s)" "<" 6 "measured period cut short"
assert_conserved "$r"
[[ $(json "$r" '.slos[1].met') == false ]] || fail "the aborting SLO failed"
grep -q 'stopped early (--abort-on-slo): p99<=10ms was certain to fail' "$E2E_TMP/out.txt" ||
  fail "summary says why it stopped: $(cat "$E2E_TMP/out.txt")"
grep -q 'certain to fail: stopping early' "$E2E_TMP/out.txt" || fail "stderr says it is stopping"
pass "aborted after ${ELAPSED}s: $(jq -c '{verdict, duration: .summary.duration_s}' "$r")"
