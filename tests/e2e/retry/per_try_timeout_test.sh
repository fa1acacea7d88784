# --per-try-timeout against a slow lab: attempts slower than 100 ms are abandoned (their connection closed) and
# retried, so each attempt lasts ≤ 100 ms while the logical request's latency spans its attempts; a request whose
# attempts all time out is one timeout, censored at its last cut.
source "$OPENLOOP_E2E_LIB"
source "$(dirname "$0")/retry_lib.sh"
# Service uniform in 1..300 ms: an attempt beats 100 ms a third of the time.
start_lab --workers 200 --service uniform:1ms..300ms
run_checked r "$LAB_URL/" --rate 100/s --duration 4s --threads 2 --timeout 1s --per-try-timeout 100ms \
  --retry-attempts 3 --retry-on timeout --backoff-base 10ms --backoff-max 20ms
r=$E2E_TMP/r.json
echo "counts: $(counts r)"
assert_cmp "$(json "$r" .summary.counts.retries)" ">=" 250 "timeouts retried (≈ 0.67 + 0.44 per request)"
assert_cmp "$(json "$r" .summary.counts.amplification)" ">=" 1.9 "amplification ≈ 2.1"
assert_cmp "$(json "$r" .summary.counts.amplification)" "<=" 2.3 "amplification ≈ 2.1"
ok=$(jq '.summary.counts.ok / .summary.counts.intended' "$r")
assert_cmp "$ok" ">=" 0.6 "retries turn ≈ 33 % per attempt into ≈ 70 % per request"
assert_cmp "$ok" "<=" 0.8 "retries turn ≈ 33 % per attempt into ≈ 70 % per request"
assert_cmp "$(jq '.summary.counts | .timeouts / .intended' "$r")" ">=" 0.2 "all three attempts too slow: a timeout"
assert_cmp "$(json "$r" .summary.attempt_time_ms.max)" "<=" 115 "each attempt cut at its per-try timeout"
assert_cmp "$(json "$r" .summary.response_time_ms.max)" ">=" 300 "a logical request spans its attempts"
assert_cmp "$(json "$r" .summary.response_time_ms.max)" "<=" 1000 "and ends before its overall deadline"
assert_cmp "$(json "$r" .summary.counts.connections_opened)" ">=" "$(json "$r" .summary.counts.retries)" \
  "an abandoned attempt's connection is closed (reopened per retry)"
pass "per-try 100 ms: $(counts r)"

# The same per-try timeout without retries: every attempt over 100 ms is a timeout.
run_checked n "$LAB_URL/" --rate 100/s --duration 2s --threads 2 --timeout 1s --per-try-timeout 100ms
assert_cmp "$(jq '.summary.counts.ok / .summary.counts.intended' "$E2E_TMP/n.json")" "<=" 0.45 "one try: ≈ 33 % ok"
# Response time = send lateness + the attempt: the cut is at 100 ms after the send, whatever the generator's own
# start-up lateness (measured, and bounded by the verdict), so the bound adds it rather than guessing it.
assert_cmp "$(json "$E2E_TMP/n.json" .summary.attempt_time_ms.max)" "<=" 110 "each attempt cut at 100 ms"
assert_cmp "$(json "$E2E_TMP/n.json" .summary.response_time_ms.max)" "<=" \
  "$(jq '.summary.send_lateness_ms.max + 110' "$E2E_TMP/n.json")" "cut at 100 ms after the send"
pass "per-try 100 ms, one attempt: $(counts n)"
