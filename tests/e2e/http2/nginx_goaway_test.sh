#!/usr/bin/env bash
# Real nginx over h2c closing each connection with GOAWAY after its 50th request (keepalive_requests 50, which
# replaced http2_max_requests in nginx 1.19.7): no request is lost, none is processed twice (nginx's access log has
# one line per request), counts are conserved, and a new connection follows each GOAWAY. Resends are forced with a
# freeze: nginx's one worker stopped for 500 ms while requests keep arriving piles up to 100 streams on one
# connection, more than the 50 nginx takes on it, so its GOAWAY refuses the rest, which are resent.
source "$OPENLOOP_E2E_LIB"
require_tools nginx jq
port=$(free_port)
start_nginx "$port" "keepalive_requests 50; access_log $E2E_TMP/nginx/access.log;" http2
url=http://127.0.0.1:$port/

# run_h2 OUT.json FLAGS...: an open-model run over h2c; a busy host may send late, nothing else may be INVALID.
run_h2() {
  local out=$1 code=0
  shift
  "$OPENLOOP" run "$url" --http2 --threads 1 --json "$out" "$@" >"$out.txt" 2>&1 || code=$?
  accept_invalid_only_for "$code" "$out" '^send lateness'
}

# expect_goaways R LOGGED_BEFORE: every request of run R ok once; nginx logged each once; connections follow GOAWAYs.
expect_goaways() {
  local r=$1 before=$2 intended resent conns
  assert_conserved "$r"
  intended=$(json "$r" .summary.counts.intended)
  resent=$(json "$r" .summary.counts.resent)
  conns=$(json "$r" .generator.connections_by_protocol.h2)
  assert_cmp "$(json "$r" .summary.counts.ok)" == "$intended" "$r: every request ok"
  assert_cmp "$(json "$r" .summary.counts.retries)" == 0 "$r: resends are not retries"
  assert_cmp "$(json "$r" .summary.counts.attempts)" == $((intended + resent)) "$r: attempts = requests + resent"
  assert_cmp $(($(wc -l <"$E2E_TMP/nginx/access.log") - before)) == "$intended" "$r: nginx served each request once"
  # Each connection serves exactly 50 before its GOAWAY; a few more may open while a GOAWAY is on its way.
  assert_cmp "$conns" ">=" $(((intended + 49) / 50)) "$r: a connection per 50 requests"
  assert_cmp "$conns" "<=" $((intended / 50 + intended / 500 + 2)) "$r: not many more than one per 50 requests"
}

# 2000/s for 3 s: a GOAWAY every 25 ms, streams often on their way when it comes (resent >= 0, counted).
r=$E2E_TMP/fast.json
run_h2 "$r" --rate 2000/s --duration 3s
expect_goaways "$r" 0
pass "2000/s: $(json "$r" .summary.counts.ok) ok over $(json "$r" .generator.connections_by_protocol.h2) connections, $(json "$r" .summary.counts.resent) resent"

# 500/s for 3 s, the worker frozen 500 ms at 1 s: ~250 arrivals pile up, 100 streams on the connection in use before
# a new one opens (the pool fills the hot connection first); nginx takes at most 50 of them and refuses the rest.
logged=$(wc -l <"$E2E_TMP/nginx/access.log")
r=$E2E_TMP/frozen.json
freeze_periodically "$(nginx_worker_pid)" 1 0.5 1 1
run_h2 "$r" --rate 500/s --duration 3s
wait "$FREEZER"
expect_goaways "$r" "$logged"
assert_cmp "$(json "$r" .summary.counts.resent)" ">=" 50 "frozen: the streams above the GOAWAY's last stream id resent"
assert_cmp "$(json "$r" .summary.response_time_ms.max)" ">=" 480 "frozen: the freeze shows from intended times"
grep -qE "^resent +$(json "$r" .summary.counts.resent) " "$r.txt" || fail "the summary names the resent: $(cat "$r.txt")"
pass "frozen 500 ms: $(json "$r" .summary.counts.ok) ok, $(json "$r" .summary.counts.resent) resent after GOAWAYs"
