#!/usr/bin/env bash
# HTTP/1.1 pipelining: 100 requests in one write (more than a connection keeps in flight) all get answers, in
# order, whether the model answers at once (service 0) or later from timers (service 1 ms, 4 workers).
# e2e: parallel-safe (pipelined answers counted)
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
require_tools curl jq timeout

requests=""
for i in $(seq 99); do requests+="GET /$i HTTP/1.1\r\nHost: lab\r\n\r\n"; done
requests+="GET /last HTTP/1.1\r\nHost: lab\r\nConnection: close\r\n\r\n"

for service in 0 1ms; do
  start_lab --workers 4 --service "$service" --body-size 4
  answers=$(raw_request "$requests" | grep -c '^HTTP/1.1 200 OK' || true)
  [[ $answers -eq 100 ]] || fail "service $service: $answers answers to 100 pipelined requests"
  [[ $(lab_query .completed) -eq 100 ]] || fail "service $service: the model completed $(lab_query .completed), not 100"
  pass "service $service: 100 pipelined requests, 100 answers"
  stop_lab
done
