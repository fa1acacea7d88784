# A 3-attempt policy retrying 5xx against a lab failing 30 % of requests: every attempt reaches the lab, the
# amplification is 1 + 0.3 + 0.09 in total and per interval, goodput is 1 − 0.3³ of the logical requests, and every
# logical request is accounted for once.
# e2e: parallel-safe (counts of attempts and outcomes at 400/s against a lab of 16000/s)
source "$OPENLOOP_E2E_LIB"
source "$(dirname "$0")/retry_lib.sh"
start_lab --workers 16 --service 1ms --error-rate 0.3
run_checked r "$LAB_URL/" --rate 400/s --duration 4s --threads 2 --timeout 2s --retry-attempts 3 --retry-on 5xx
r=$E2E_TMP/r.json
echo "counts: $(counts r)"
assert_cmp "$(json "$r" .summary.counts.intended)" == 1600 "intended = 400/s x 4 s"
assert_cmp "$(json "$r" .summary.counts.amplification)" ">=" 1.33 "amplification ≈ 1.39"
assert_cmp "$(json "$r" .summary.counts.amplification)" "<=" 1.45 "amplification ≈ 1.39"
assert_cmp "$(json "$r" .summary.amplification)" == "$(json "$r" .summary.counts.amplification)" "summary amplification"
assert_cmp "$(jq '[.intervals[].counts.amplification] | min' "$r")" ">=" 1.2 "every interval amplifies"
assert_cmp "$(jq '[.intervals[].counts.amplification] | max' "$r")" "<=" 1.6 "every interval amplifies"
assert_cmp "$(jq '.summary.counts | .attempts - .sent - .retries' "$r")" "<=" 0 "attempts = first attempts + retries"
assert_cmp "$(json "$r" .summary.counts.retry_budget_denied)" == 0 "no budget, no denials"
goodput=$(jq '.summary.counts.ok / .summary.counts.intended' "$r")
assert_cmp "$goodput" ">=" 0.95 "goodput ≈ 97.3 % of logical requests"
assert_cmp "$goodput" "<=" 0.99 "goodput ≈ 97.3 % of logical requests (some fail all 3 attempts)"
assert_cmp "$(jq '.summary.counts.status_classes["5xx"]' "$r")" == "$(jq '.summary.counts.completed - .summary.counts.ok' "$r")" \
  "the 5xx counted are the logical requests' final outcomes"
assert_cmp "$(lab_stat arrivals)" == "$(json "$r" .summary.counts.attempts)" "the lab saw every attempt, nothing more"
assert_cmp "$(json "$r" .summary.attempt_time_ms.count)" == "$(json "$r" .summary.counts.attempts)" \
  "one attempt_time sample per attempt"
grep -q 'amplification 1\.[34]' "$E2E_TMP/r.txt" || fail "the summary shows the amplification: $(cat "$E2E_TMP/r.txt")"
pass "3 attempts on 30 % errors: $(counts r)"

# Without retries the same lab fails 30 % and nothing is amplified; the summary says nothing of retries.
run_checked n "$LAB_URL/" --rate 400/s --duration 2s --threads 2 --timeout 2s
n=$E2E_TMP/n.json
assert_cmp "$(json "$n" .summary.counts.amplification)" == 1 "no retries: amplification 1"
assert_cmp "$(json "$n" .summary.counts.retries)" == 0 "no retries"
if grep -q '^retries' "$E2E_TMP/n.txt"; then fail "no retries block without retries"; fi
pass "1 attempt: $(counts n)"
