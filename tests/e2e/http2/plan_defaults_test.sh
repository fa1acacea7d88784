#!/usr/bin/env bash
# A plan file's `defaults: {max_streams, h2_window, connections}` reach the run, as --max-streams, --h2-window and
# --connections do, and the flags given on the command line win over them. Forced, not timed: the lab advertises
# 100 streams and freezes 300 ms of every second, so at 200/s about 60 requests pile up per freeze; on the plan's
# one connection of 2 streams most of them must wait for a stream (with the flags' 100 streams none would), and
# the lab's own count says one HTTP/2 connection came. A bad value exits 2 naming the file, line:column, key and
# what is accepted.
# e2e: light (connections and streams forced by 300-ms freezes at 200/s)
source "$OPENLOOP_E2E_LIB"
require_tools jq curl

start_lab --http2 --max-streams 100 --service 1ms --workers 200 --stall 300ms/1s

cat >"$E2E_TMP/plan.yaml" <<YAML
target: $LAB_URL
defaults: {protocol: h2, max_streams: 2, h2_window: 65535, connections: 1}
requests: {r: GET /r}
scenarios:
  s: {model: open, rate: 200/s, duration: 2s, request: r}
YAML

r=$E2E_TMP/plan.json
code=0
"$OPENLOOP" run "$E2E_TMP/plan.yaml" --on-saturation queue --threads 1 -q --json "$r" >/dev/null || code=$?
accept_invalid_only_for "$code" "$r" 'waited for a free stream/connection' '^send lateness' \
  '^([A-Za-z0-9_.-]+: )?arrival process: .*the queued sends above'
assert_conserved "$r"
assert_cmp "$(json "$r" .scenarios[0].plan.max_streams)" == 2 "plan.max_streams from defaults.max_streams"
assert_cmp "$(json "$r" .scenarios[0].plan.h2_window)" == 65535 "plan.h2_window from defaults.h2_window"
assert_cmp "$(json "$r" .scenarios[0].plan.max_connections)" == 1 "plan.max_connections from defaults.connections"
[[ $(json "$r" .scenarios[0].plan.connections) == "fixed (--connections)" ]] ||
  fail "plan.connections: $(json "$r" .scenarios[0].plan.connections)"
assert_cmp "$(json "$r" .generator.connections_by_protocol.h2)" == 1 "one HTTP/2 connection opened"
assert_cmp "$(json "$r" .summary.counts.slot_waits)" ">=" 30 "arrivals waited for one of the 2 streams"
assert_cmp "$(json "$r" .summary.counts.ok)" == "$(json "$r" .summary.counts.intended)" "every request ok"
stats=$(curl -sS --max-time 5 --http2-prior-knowledge "$LAB_URL/_lab/stats")
# The query's own connection is counted too.
assert_cmp "$(strict_jq "$LAB_URL/_lab/stats" .http2.connections <<<"$stats")" == 2 "the lab saw one HTTP/2 connection"
pass "a plan's max_streams 2, h2_window 65535, connections 1: $(json "$r" .summary.counts.slot_waits) of" \
  "$(json "$r" .summary.counts.intended) arrivals waited for a stream on 1 connection"

# The flags win: --max-streams 100 (its default value, given) and --connections 2 over the file's 2 and 1.
r=$E2E_TMP/flags.json
code=0
"$OPENLOOP" run "$E2E_TMP/plan.yaml" --max-streams 100 --h2-window 1000000 --connections 2 --on-saturation queue \
  --threads 1 -q --json "$r" >/dev/null || code=$?
accept_invalid_only_for "$code" "$r" 'waited for a free stream/connection' '^send lateness'
assert_cmp "$(json "$r" .scenarios[0].plan.max_streams)" == 100 "--max-streams wins over defaults.max_streams"
assert_cmp "$(json "$r" .scenarios[0].plan.h2_window)" == 1000000 "--h2-window wins over defaults.h2_window"
assert_cmp "$(json "$r" .scenarios[0].plan.max_connections)" == 2 "--connections wins over defaults.connections"
pass "flags given on the command line win over the plan's defaults"

for bad in "max_streams: 0|defaults.max_streams: \"0\" is not accepted; give 1 to 1048576 streams per connection" \
  "h2_window: 2147483648|defaults.h2_window: \"2147483648\" is not accepted; give a window of 1 to 2147483647 bytes" \
  "connections: none|defaults.connections: \"none\" is not accepted; give 1 to 10000000 connections"; do
  printf 'target: %s\ndefaults: {%s}\nrequests: {r: GET /r}\nscenarios: {s: {model: open, rate: 1/s, duration: 1s, request: r}}\n' \
    "$LAB_URL" "${bad%%|*}" >"$E2E_TMP/bad.yaml"
  code=0
  "$OPENLOOP" run "$E2E_TMP/bad.yaml" -q >"$E2E_TMP/bad.out" 2>&1 || code=$?
  [[ $code == 2 ]] || fail "${bad%%|*}: exit $code, expected 2"
  grep -F "$E2E_TMP/bad.yaml:2:" "$E2E_TMP/bad.out" | grep -qF "${bad#*|}" ||
    fail "${bad%%|*}: the message names the file, place, key and what is accepted: $(cat "$E2E_TMP/bad.out")"
done
pass "bad max_streams, h2_window, connections in a plan: exit 2, named"
