#!/usr/bin/env bash
# The --on-saturation queue drains into every free stream of a connection at once, not one per response: with one
# connection (--connections 1) that the lab ends by GOAWAY after every 200 streams, the arrivals due while it
# closes and reopens queue, and the reopened connection must take them all (up to its streams). Were it to take one
# per release, a single stream would stay in use and the queue would never empty (one in per arrival, one out per
# response): nearly every later arrival would wait (2800 of 3000 did, slot wait p99 0.4-1 s). Forced by the lab's
# GOAWAY, whatever the host's speed.
# e2e: light (waits forced by the lab's GOAWAY every 200 streams at 1000/s: at most a third of 3,000 may wait)
source "$OPENLOOP_E2E_LIB"
require_tools jq

start_lab --http2 --service 1ms --workers 200 --goaway-after 200
r=$E2E_TMP/drain.json
code=0
"$OPENLOOP" run "$LAB_URL/" --http2 --connections 1 --on-saturation queue --rate 1000/s --duration 3s --threads 1 \
  --slo none --json "$r" >"$E2E_TMP/drain.txt" || code=$?
accept_invalid_only_for "$code" "$r" '^send lateness' 'waited for a free stream/connection'
assert_conserved "$r"
intended=$(json "$r" .summary.counts.intended)
waits=$(json "$r" .summary.counts.slot_waits)
assert_cmp "$intended" == 3000 "every arrival intended"
assert_cmp "$(json "$r" .summary.counts.completed)" == 3000 "every request completed"
# The connection was reopened after each GOAWAY: the queue had something to drain.
assert_cmp "$(json "$r" .generator.connections_by_protocol.h2)" ">=" 10 "a new connection after every 200 streams"
assert_cmp "$((waits * 3))" "<=" "$intended" "at most a third of the arrivals waited ($waits of $intended)"
pass "one connection reopened after each GOAWAY: $waits of $intended waited (slot wait p99 $(json "$r" '.summary.slot_wait_ms.p99 // 0') ms)"
