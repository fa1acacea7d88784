#!/usr/bin/env bash
# Bad requests (malformed, oversized headers, slow senders, many idle connections) are answered or closed,
# counted, and the server keeps serving.
# e2e: light (the lab's answers and counters to bad requests)
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
require_tools curl jq wrk timeout
IDLE=${LAB_E2E_IDLE_CONNECTIONS:-10000}

start_lab --workers 4 --service 0 --header-timeout 1s

resp=$(raw_request 'GARBAGE\r\n\r\n')
[[ $resp == "HTTP/1.1 400"* ]] || fail "malformed request: expected 400, got: ${resp:0:60}"
[[ $(lab_query .server.malformed) -eq 1 ]] || fail "malformed request not counted"
pass "malformed request: 400, connection closed, counted"

big=$(head -c 20000 /dev/zero | tr '\0' a)
[[ $(http_status "$LAB_URL/" -H "X-Big: $big") == 431 ]] || fail "oversized headers: expected 431"
[[ $(lab_query .server.headers_too_large) -eq 1 ]] || fail "oversized headers not counted"
pass "20 KB of headers: 431, counted"

t0=$(date +%s%N)
resp=$(raw_request 'GET / HTTP/1.1\r\nHost: slow')
elapsed_ms=$((($(date +%s%N) - t0) / 1000000))
[[ $resp == "HTTP/1.1 408"* ]] || fail "slow sender: expected 408, got: ${resp:0:60}"
[[ $(lab_query .server.read_timeouts) -eq 1 ]] || fail "slow sender not counted"
check "$elapsed_ms >= 900 && $elapsed_ms < 4000" "slow sender cut off after ${elapsed_ms} ms (--header-timeout 1s), counted"

# Many idle connections: opened by this shell (each an fd here too), held while the lab keeps serving.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
max_fds=$(($(ulimit -n) - 100))
((IDLE > max_fds)) && IDLE=$max_fds
fds=()
for _ in $(seq "$IDLE"); do
  exec {fd}<>"/dev/tcp/127.0.0.1/$PORT" || break
  fds+=("$fd")
done
open=$(lab_query .server.connections_open)
check "$open >= ${#fds[@]}" "${#fds[@]} idle connections open in the lab ($open counted)"
[[ $(http_status "$LAB_URL/") == 200 ]] || fail "not serving with idle connections open"
rate=$(wrk_rate -t1 -c8 -d1s)
check "$rate > 1000" "serving ${rate}/s under wrk with ${#fds[@]} idle connections open"
for fd in "${fds[@]}"; do exec {fd}>&-; done
[[ $(lab_query .bad_requests) -eq 3 ]] || fail "bad_requests should be 3, is $(lab_query .bad_requests)"
pass "bad_requests = 3 in /_lab/stats"
stop_lab
