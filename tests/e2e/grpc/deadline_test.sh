#!/usr/bin/env bash
# A 50 ms --timeout against a server that takes 200 ms: grpc-timeout carries the deadline, and each call ends once,
# as DEADLINE_EXCEEDED from the server or as openloop's own timeout; none is lost, none is a success.
# e2e: light (each call ends once at 50/s; a 50-ms timeout against a 200-ms server)
source "$OPENLOOP_E2E_LIB"
source "$(dirname "$0")/grpc_server.sh"
grpc_require

start_grpc_server 200
r=$E2E_TMP/deadline.json
code=0
"$OPENLOOP" run "$GRPC_URL" --call openloop.test.v1.Bench/Call --proto "$GRPC_PROTOS/bench.proto" \
  --import-path "$GRPC_PROTOS" --rate 50/s --duration 1s --timeout 50ms --threads 1 --slo none --json "$r" \
  --log-requests "$E2E_TMP/deadline.log" -q >"$E2E_TMP/out.txt" 2>&1 || code=$?
[[ $code == 0 || $code == 3 ]] || fail "exit $code: $(cat "$E2E_TMP/out.txt")"
assert_conserved "$r"
intended=$(json "$r" .summary.counts.intended)
assert_cmp "$intended" == 50 "every intended call counted"
assert_cmp "$(json "$r" .summary.counts.ok)" == 0 "no call succeeds past its deadline"
timeouts=$(json "$r" .summary.counts.timeouts)
exceeded=$(jq -s '[.[] | select(.grpc_status == "DEADLINE_EXCEEDED")] | length' "$E2E_TMP/deadline.log")
assert_cmp "$((timeouts + exceeded))" == "$intended" "each call a client timeout or DEADLINE_EXCEEDED"
assert_cmp "$(json "$r" .summary.counts.errors)" == 0 "no protocol error"
assert_cmp "$(wc -l <"$E2E_TMP/deadline.log")" == "$intended" "one log line per call"
stop_grpc_server
pass "50 ms deadline against 200 ms: $timeouts client timeouts + $exceeded DEADLINE_EXCEEDED = $intended"
