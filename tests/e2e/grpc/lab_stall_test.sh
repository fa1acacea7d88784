#!/usr/bin/env bash
# The stall experiment over gRPC: `openloop lab --grpc` frozen 500 ms of every 2 s, called at 500/s for 4 s (two
# whole periods, whatever their phase): the calls that arrive during a stall wait for its end, so p99 is near the
# stall (~25% of the calls waited up to 500 ms; the seed's 494 ms) and the max at most a stall plus slack, while
# the lab's own count equals openloop's completed.
# e2e: light (500-ms stalls in p99 (350-700 ms) at 500/s; counts equal to the lab's own)
source "$OPENLOOP_E2E_LIB"
require_tools jq curl

start_lab --grpc --workers 200 --service 1ms --stall 500ms/2s
r=$E2E_TMP/stall.json
code=0
"$OPENLOOP" run "grpc://127.0.0.1:$PORT" --call openloop.lab.v1.Lab/Call --data '{"key": "k1"}' --rate 500/s \
  --duration 4s --threads 1 --timeout 2s --slo none --json "$r" >"$E2E_TMP/stall.txt" 2>&1 || code=$?
accept_invalid_only_for "$code" "$r" '^send lateness' '^arrival process: '
assert_conserved "$r"
assert_cmp "$(json "$r" .summary.counts.intended)" == 2000 "every intended call counted (500/s for 4 s)"
assert_cmp "$(json "$r" .summary.counts.ok)" == 2000 "every call OK: a stall delays, it does not fail"
p99=$(json "$r" .summary.response_time_ms.p99)
# Two stalls of 500 ms in 4 s: a quarter of the calls wait, uniformly up to 500 ms, so p99 ≈ 480 ms. The bounds
# leave room for a loaded host (late sends shorten the waits a little; a slow wake-up lengthens them).
assert_cmp "$p99" ">=" 350 "p99 shows the stall"
assert_cmp "$p99" "<=" 700 "p99 is the stall, not more"
assert_cmp "$(json "$r" .summary.response_time_ms.max)" ">=" 400 "max shows a whole stall"
assert_cmp "$(json "$r" .summary.service_time_ms.p50)" "<" 100 "service time itself stays small"
stats=$(curl -sS --max-time 5 --http2-prior-knowledge "http://127.0.0.1:$PORT/_lab/stats")
assert_cmp "$(strict_jq stats .grpc.calls <<<"$stats")" == 2000 "the lab counted every call"
assert_cmp "$(strict_jq stats .completed <<<"$stats")" == "$(json "$r" .summary.counts.completed)" \
  "the lab's completed equals openloop's"
stop_lab
pass "lab --grpc stalled 500 ms every 2 s at 500/s: p99 $p99 ms, max $(json "$r" .summary.response_time_ms.max) ms"
