# Retry budgets cap amplification and count their denials: Finagle's ratio (10 % of recent requests), gRPC's tokens
# and the AWS SDK's quota, against a lab failing 30 % of requests with a 3-attempt policy (unbudgeted: 1.39). The
# budgets' logic on virtual time (openloop simulate against the lab's model: deterministic, well under a second per
# run); retries over real sockets are amplification_test.sh and same_bytes_test.sh.
# e2e: parallel-safe (no timing judged: see tests/e2e/CMakeLists.txt)
source "$OPENLOOP_E2E_LIB"
source "$(dirname "$0")/retry_lib.sh"
lab=(--lab '--workers 16 --service 1ms --error-rate 0.3')
flags=(--rate 500/s --duration 3s --timeout 2s --retry-attempts 3 --retry-on 5xx)
run_checked() {  # as retry_lib.sh's, on virtual time: a simulated run is never late, so it must be VALID
  local name=$1 code=0
  shift
  "$OPENLOOP" simulate "$@" "${lab[@]}" --slo none -q --json "$E2E_TMP/$name.json" >"$E2E_TMP/$name.txt" \
    2>"$E2E_TMP/$name.err" || code=$?
  [[ $code == 0 ]] || fail "$name: exit $code: $(cat "$E2E_TMP/$name.err" "$E2E_TMP/$name.txt")"
  [[ $(json "$E2E_TMP/$name.json" .simulated) == true ]] || fail "$name: not labelled simulated"
  assert_conserved "$E2E_TMP/$name.json"
}
LAB_URL=http://127.0.0.1:9  # only a label: nothing is sent

run_checked ratio "$LAB_URL/" "${flags[@]}" --retry-budget 'ratio:10%,min=0/s'
r=$E2E_TMP/ratio.json
echo "ratio: $(counts ratio)"
assert_cmp "$(json "$r" .summary.counts.amplification)" "<=" 1.105 "ratio 10 %: retries ≤ 10 % of requests"
assert_cmp "$(json "$r" .summary.counts.amplification)" ">=" 1.07 "ratio 10 %: the budget is used"
assert_cmp "$(json "$r" .summary.counts.retry_budget_denied)" ">=" 200 "denials counted (≈ 300 wanted retries refused)"
grep -q 'budget denied [1-9]' "$E2E_TMP/ratio.txt" || fail "the summary shows the denials"
assert_cmp "$(jq '[.intervals[].counts.retry_budget_denied] | add' "$r")" == "$(json "$r" .summary.counts.retry_budget_denied)" \
  "denials add up over the intervals"
pass "ratio:10%: $(counts ratio)"

# Finagle's default reserve (min=10/s over ttl=10s) lets 100 retries through on top of the ratio.
run_checked reserve "$LAB_URL/" "${flags[@]}" --retry-budget 'ratio:10%'
assert_cmp "$(jq '.summary.counts.retries - .summary.counts.sent * 0.1' "$E2E_TMP/reserve.json")" ">=" 60 \
  "the reserve adds retries"
pass "ratio:10% with the default reserve: $(counts reserve)"

# gRPC tokens: 30 % failures drain the tokens (−1 each, +0.1 per success) to the threshold, where retries stop.
run_checked tokens "$LAB_URL/" "${flags[@]}" --retry-budget 'tokens:max=10,ratio=0.1'
assert_cmp "$(json "$E2E_TMP/tokens.json" .summary.counts.amplification)" "<=" 1.1 "tokens throttle retries"
assert_cmp "$(json "$E2E_TMP/tokens.json" .summary.counts.retry_budget_denied)" ">=" 200 "token denials counted"
pass "tokens:max=10,ratio=0.1: $(counts tokens)"

# AWS quota: 500 (250 per worker) at 5 per retry; a success refunds its retry's cost, or 1. At 30 % independent
# failures retries mostly succeed and refund more than they cost (+0.1 per request): the quota never runs out.
run_checked quota "$LAB_URL/" "${flags[@]}" --retry-budget 'quota:500'
assert_cmp "$(json "$E2E_TMP/quota.json" .summary.counts.amplification)" ">=" 1.33 "the quota does not bite at 30 %"
assert_cmp "$(json "$E2E_TMP/quota.json" .summary.counts.retry_budget_denied)" == 0 "no quota denials at 30 %"
pass "quota:500 at 30 % errors: $(counts quota)"

# At 80 % failures retries mostly fail too and spend the quota (−5.6 per request): it empties within a second
# and then only first-try successes (+1 each) fund a retry now and then. Unbudgeted this would be 1 + 0.8 + 0.64.
lab=(--lab '--workers 16 --service 1ms --error-rate 0.8')
run_checked drained "$LAB_URL/" "${flags[@]}" --retry-budget 'quota:500'
assert_cmp "$(json "$E2E_TMP/drained.json" .summary.counts.amplification)" "<=" 1.3 "the quota caps retries"
assert_cmp "$(json "$E2E_TMP/drained.json" .summary.counts.retry_budget_denied)" ">=" 500 "quota denials counted"
pass "quota:500 at 80 % errors: $(counts drained)"
