# --honor-retry-after: a 503 with Retry-After: 1 delays the retry by one second, inside the deadline; past the
# deadline there is no retry; without the flag the jittered backoff applies.
# e2e: light (retries and their Retry-After waits (lower bounds) at 20/s)
source "$OPENLOOP_E2E_LIB"
source "$(dirname "$0")/retry_lib.sh"
command -v nginx >/dev/null || { echo "SKIP: nginx is not installed"; exit 77; }
port=$(free_port)
start_nginx "$port" 'location = /busy { add_header Retry-After 1 always; return 503; }'
url=http://127.0.0.1:$port/busy
flags=(--rate 20/s --duration 1s --threads 1 --retry-attempts 2 --retry-on 5xx)

run_checked honored "$url" "${flags[@]}" --timeout 3s --honor-retry-after
h=$E2E_TMP/honored.json
assert_cmp "$(json "$h" .summary.counts.retries)" == "$(json "$h" .summary.counts.sent)" "every request retried once"
assert_cmp "$(json "$h" .summary.response_time_ms.p50)" ">=" 1000 "the retry waited for Retry-After"
assert_cmp "$(json "$h" .summary.response_time_ms.max)" "<=" 1300 "and no longer"
pass "Retry-After 1 within a 3 s deadline: $(counts honored)"

run_checked late "$url" "${flags[@]}" --timeout 500ms --honor-retry-after
assert_cmp "$(json "$E2E_TMP/late.json" .summary.counts.retries)" == 0 "Retry-After beyond the deadline: no retry"
assert_cmp "$(json "$E2E_TMP/late.json" .summary.counts.completed)" == 20 "each request ends as its 503"
pass "Retry-After 1 beyond a 500 ms deadline: $(counts late)"

run_checked ignored "$url" "${flags[@]}" --timeout 3s
assert_cmp "$(json "$E2E_TMP/ignored.json" .summary.counts.retries)" == 20 "retried on the backoff"
assert_cmp "$(json "$E2E_TMP/ignored.json" .summary.response_time_ms.max)" "<=" 200 "without waiting a second"
pass "Retry-After ignored without the flag: $(counts ignored)"
