#!/usr/bin/env bash
# The default connection count over HTTP/2 follows the peer's stream limit, known only from its SETTINGS: the lab
# advertises 4 streams and freezes 300 ms of every second, so at 200/s about 60 requests are in flight at once, more
# than the 12 connections × 4 streams the old default (the Little's-law cap, 1,116 at 200/s × 5 s, over
# --max-streams 100) opened: 36 of 600 arrivals waited then. By default the pool opens a connection whenever every
# stream of the others is busy, up to the cap: no arrival waits, and the results say why that many connections
# (plan.connections "as needed", the summary's protocol note). An explicit --connections is never changed: with 2
# (8 streams) the arrivals still wait, and the verdict names --connections.
# e2e: light (connection counts forced by 300-ms freezes at 200/s)
source "$OPENLOOP_E2E_LIB"
require_tools jq

start_lab --http2 --max-streams 4 --service 1ms --workers 200 --stall 300ms/1s

r=$E2E_TMP/default.json
code=0
"$OPENLOOP" run "$LAB_URL/" --http2 --on-saturation queue --rate 200/s --duration 3s --threads 1 --json "$r" \
  >"$r.txt" || code=$?
accept_invalid_only_for "$code" "$r" '^send lateness'
assert_conserved "$r"
assert_cmp "$(json "$r" .summary.counts.ok)" == "$(json "$r" .summary.counts.intended)" "every request ok"
assert_cmp "$(json "$r" .summary.counts.slot_waits)" == 0 "no arrival waited for a stream"
# The stalls hold ~60 streams, 4 a connection: more than the old default's 12 connections were needed and opened.
h2=$(json "$r" .generator.connections_by_protocol.h2)
assert_cmp "$h2" ">" 12 "connections opened as the 4-stream peer needed"
assert_cmp "$(json "$r" .generator.peak_connections)" ">" 12 "more than 12 open at once during a stall"
[[ $(json "$r" .plan.connections) == "as needed" ]] || fail "plan.connections: $(json "$r" .plan.connections)"
grep -qF "protocol h2 ($h2 connections, opened as the streams in flight needed)" "$r.txt" ||
  fail "the summary says why that many connections: $(grep generator "$r.txt")"
pass "default connections against a 4-stream peer: $h2 opened (peak $(json "$r" .generator.peak_connections)), no slot waits"

r=$E2E_TMP/fixed.json
code=0
"$OPENLOOP" run "$LAB_URL/" --http2 --connections 2 --on-saturation queue --rate 200/s --duration 3s --threads 1 \
  --json "$r" >"$r.txt" || code=$?
[[ $code == 3 ]] || fail "2 connections × 4 streams through 300 ms stalls at 200/s: exit $code, expected 3 (INVALID)"
accept_invalid_only_for "$code" "$r" 'waited for a free stream/connection' '^arrival process: .*the queued sends above'
assert_conserved "$r"
assert_cmp "$(json "$r" .summary.counts.slot_waits)" ">=" 100 "arrivals waited for a stream on 2 connections"
assert_cmp "$(json "$r" .generator.connections_by_protocol.h2)" == 2 "--connections 2 kept"
[[ $(json "$r" .plan.connections) == "fixed (--connections)" ]] || fail "plan.connections: $(json "$r" .plan.connections)"
jq -e '[.verdict.reasons[] | select(test("waited for a free stream/connection .*raise --connections or --max-streams"))] | length == 1' \
  "$r" >/dev/null || fail "the verdict names --connections: $(jq -c .verdict.reasons "$r")"
grep -qF "protocol h2 (2 connections, fixed by --connections)" "$r.txt" ||
  fail "the summary says the connections were fixed: $(grep generator "$r.txt")"
pass "--connections 2 against a 4-stream peer: $(json "$r" .summary.counts.slot_waits) of $(json "$r" .summary.counts.intended) waited, named"
