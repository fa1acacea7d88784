#!/usr/bin/env bash
# Slot waits: an arrival that finds every stream (HTTP/2, fixed --connections at the peer's stream limit) or every
# connection (HTTP/1.1 at --max-connections) busy waits in the --on-saturation queue; its wait is
# summary.slot_wait_ms and counts.slot_waits (per interval too, adding up to the summary), a line of the summary,
# and the verdict's reason instead of the timers or the generator. The waits are forced: the lab frozen 300 ms of
# every second holds its 4 streams (or connections) while arrivals keep coming: any 2 s hold 600 ms of stall, about
# 180 arrivals at 300/s (3 s at 200/s until stop 45: as many waits in less time). Without the cap: none. nghttpd -m 4
# (the real peer) on one connection: whatever the host's speed, the counter, the histogram and the verdict agree.
source "$OPENLOOP_E2E_LIB"
require_tools nghttpd jq

# check_slot_waits FILE TEXT ADVICE: waits recorded, consistent and named by the verdict (and nothing else).
check_slot_waits() {
  local r=$1 txt=$2 advice=$3 waits
  assert_conserved "$r"
  waits=$(json "$r" .summary.counts.slot_waits)
  # ~60 arrivals per stall against 4 slots: at least 2 stalls × 50 queue, on any host (a slower one queues more).
  assert_cmp "$waits" ">=" 100 "arrivals waited for a slot ($(jq -c .summary.counts "$r"))"
  assert_cmp "$(json "$r" .summary.slot_wait_ms.count)" == "$waits" "one slot wait per queued arrival"
  assert_cmp "$(json "$r" '[.intervals[].counts.slot_waits] | add')" == "$waits" "intervals add up to the summary"
  assert_cmp "$(json "$r" '[.intervals[] | .slot_wait_ms.count // 0] | add')" == "$waits" \
    "interval histograms add up to the summary"
  assert_cmp "$(json "$r" '[.intervals[] | select(.histograms.slot_wait != null)] | length')" ">=" 2 \
    "encoded per-interval slot-wait histograms"
  assert_cmp "$(json "$r" .summary.slot_wait_ms.p99)" ">=" 100 "arrivals queued early in a stall waited ≥ 100 ms"
  jq -e --arg advice "$advice" \
    '[.verdict.reasons[] | select(test("^[0-9.]+% of sends \\([0-9]+ of [0-9]+ intended\\) waited for a free stream/connection \\(slot wait p99 .*raise " + $advice))] | length == 1' \
    "$r" >/dev/null || fail "the verdict does not name the slot waits ($advice): $(jq -c .verdict.reasons "$r")"
  jq -e '[.verdict.reasons[] | select(test("^send lateness|timer floor|CPU-bound"))] | length == 0' "$r" >/dev/null ||
    fail "the verdict blames the generator for queued sends: $(jq -c .verdict.reasons "$r")"
  grep -qE "^slot waits $waits \([0-9.]+% of intended\) queued for a free stream/connection: wait p50 " "$txt" ||
    fail "the summary has no slot-wait line: $(cat "$txt")"
}

# HTTP/2: the lab advertises 4 streams, one connection.
start_lab --http2 --max-streams 4 --service 1ms --workers 200 --stall 300ms/1s
r=$E2E_TMP/h2.json
code=0
"$OPENLOOP" run "$LAB_URL/" --http2 --connections 1 --on-saturation queue --rate 300/s --duration 2s --threads 1 \
  --json "$r" >"$E2E_TMP/h2.txt" || code=$?
[[ $code == 3 ]] || fail "4 streams through 300 ms stalls at 300/s: exit $code, expected 3 (INVALID)"
accept_invalid_only_for "$code" "$r" 'waited for a free stream/connection' '^arrival process: .*the queued sends above'
check_slot_waits "$r" "$E2E_TMP/h2.txt" "--connections or --max-streams"
assert_cmp "$(json "$r" .generator.connections_by_protocol.h2)" == 1 "one connection"
# Read back from the file: the same line and the same reason.
"$OPENLOOP" report "$r" >"$E2E_TMP/h2-again.txt" || true
grep -qE "^slot waits $(json "$r" .summary.counts.slot_waits) " "$E2E_TMP/h2-again.txt" ||
  fail "report of the file lost the slot waits: $(cat "$E2E_TMP/h2-again.txt")"
pass "h2, 4 streams on 1 connection: $(json "$r" .summary.counts.slot_waits) of $(json "$r" .summary.counts.intended) waited (p99 $(json "$r" .summary.slot_wait_ms.p99) ms), named"

# The same stalls without the cap: the pool opens what it needs, nothing waits (default_connections_test.sh). One
# second (two until stop 47) holds a whole 300-ms stall of the lab's 1-s cycle.
r=$E2E_TMP/free.json
code=0
"$OPENLOOP" run "$LAB_URL/" --http2 --on-saturation queue --rate 300/s --duration 1s --threads 1 \
  --json "$r" >"$E2E_TMP/free.txt" || code=$?
accept_invalid_only_for "$code" "$r" '^send lateness'
assert_conserved "$r"
assert_cmp "$(json "$r" .summary.counts.slot_waits)" == 0 "without the cap no arrival waits"
jq -e '.summary | has("slot_wait_ms") | not' "$r" >/dev/null || fail "a slot-wait histogram without waits"
! grep -q '^slot waits' "$E2E_TMP/free.txt" || fail "a slot-wait line without waits"
pass "h2 without the cap: no slot waits"

# HTTP/1.1: 4 connections at most, queued; the advice is --max-connections.
stop_lab
start_lab --service 1ms --workers 200 --stall 300ms/1s
r=$E2E_TMP/h1.json
code=0
"$OPENLOOP" run "$LAB_URL/" --max-connections 4 --on-saturation queue --rate 300/s --duration 2s --threads 1 \
  --json "$r" >"$E2E_TMP/h1.txt" || code=$?
[[ $code == 3 ]] || fail "4 connections through 300 ms stalls at 300/s: exit $code, expected 3 (INVALID)"
accept_invalid_only_for "$code" "$r" 'waited for a free stream/connection' '^arrival process: .*the queued sends above'
check_slot_waits "$r" "$E2E_TMP/h1.txt" "--max-connections"
pass "h1, 4 connections: $(json "$r" .summary.counts.slot_waits) of $(json "$r" .summary.counts.intended) waited, named"

# nghttpd -m 4, one connection, a static file: however fast this host serves it, the counter and the histogram agree,
# and the verdict names the waits exactly when more than 1 % of the arrivals waited.
docroot=$E2E_TMP/www
mkdir -p "$docroot"
head -c 200000 /dev/zero >"$docroot/big"
port=$(free_port)
nghttpd --no-tls -m 4 -d "$docroot" "$port" >"$E2E_TMP/nghttpd.log" 2>&1 &
E2E_PIDS+=($!)
wait_port "$port"
r=$E2E_TMP/nghttpd.json
code=0
"$OPENLOOP" run "http://127.0.0.1:$port/big" --http2 --connections 1 --on-saturation queue --rate 1000/s \
  --duration 1s --threads 1 --json "$r" >"$E2E_TMP/nghttpd.txt" || code=$?
accept_invalid_only_for "$code" "$r" '^send lateness' 'waited for a free stream/connection' \
  '^arrival process: .*the queued sends above'
assert_conserved "$r"
waits=$(json "$r" .summary.counts.slot_waits)
intended=$(json "$r" .summary.counts.intended)
assert_cmp "$(json "$r" '.summary.slot_wait_ms.count // 0')" == "$waits" "nghttpd: one slot wait per queued arrival"
named=$(jq '[.verdict.reasons[] | select(test("waited for a free stream/connection"))] | length' "$r")
if ((waits * 100 > intended)); then
  [[ $named == 1 ]] || fail "nghttpd: $waits of $intended waited, not named: $(jq -c .verdict.reasons "$r")"
else
  [[ $named == 0 ]] || fail "nghttpd: $waits of $intended waited (≤ 1 %), named: $(jq -c .verdict.reasons "$r")"
fi
pass "nghttpd -m 4, 1 connection: $waits of $intended waited, named: $named"
