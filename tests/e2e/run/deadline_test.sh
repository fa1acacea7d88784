# run --deadline: goodput counts successes within the deadline while the client waits up to --timeout, so one run
# shows throughput and goodput apart (every response takes 20 ms: a 10 ms deadline leaves goodput at 0 with every
# request completed). --max-lateness relaxes the verdict's send-lateness bound and the verdict says so.
# e2e: light (goodput against a deadline at 50/s with 20-ms responses)
source "$OPENLOOP_E2E_LIB"
start_lab --workers 8 --service 20ms
cd "$E2E_TMP"
run() {
  local code=0
  "$OPENLOOP" run "$LAB_URL/" --rate 50/s -d 2s --threads 1 --timeout 1s -q "$@" >out.txt 2>err.txt || code=$?
  # Exit 1 (the goodput SLO another default may add) or 3 on a loaded machine's send lateness alone are accepted.
  if [[ $code == 3 ]]; then
    only_schedule_reasons r.json ||
      fail "verdict: $(json r.json '.verdict.reasons')"
  elif [[ $code != 0 && $code != 1 ]]; then
    fail "exit $code: $(cat out.txt err.txt)"
  fi
}

run --deadline 10ms --json r.json --no-html
assert_conserved r.json
assert_cmp "$(json r.json .summary.counts.intended)" == 100 "intended = 50/s x 2 s"
assert_cmp "$(json r.json .summary.counts.completed)" == 100 "every response arrived within the 1 s timeout"
assert_cmp "$(json r.json .summary.counts.ok)" == 0 "no 20 ms response is within a 10 ms deadline"
assert_cmp "$(json r.json .plan.deadline_s)" == 0.01 "the deadline is in the plan"
grep -qE '^rates \(per second\) .* throughput 50\.0 +goodput 0\.0 \(successes within the 10ms deadline\)$' out.txt ||
  fail "rates line: $(grep '^rates' out.txt)"
pass "a 10 ms deadline: throughput 50/s, goodput 0"

run --deadline 500ms --json r.json --no-html
assert_cmp "$(json r.json .summary.counts.ok)" == 100 "every 20 ms response is within a 500 ms deadline"
pass "a 500 ms deadline: every response is ok"

run --max-lateness 50ms --json r.json --no-html
assert_cmp "$(json r.json .plan.max_lateness_ms)" == 50 "the relaxed bound is in the plan"
grep -q '^  send-lateness bound relaxed to 50ms by --max-lateness (default 1ms)' out.txt ||
  fail "verdict block: $(head -5 out.txt)"
pass "--max-lateness printed in the verdict"
