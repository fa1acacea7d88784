# HTTP/2 against the real nghttpd (Debian nghttp2-server): h2c by prior knowledge at a modest open rate is VALID,
# every request completes, counts are conserved and the results say h2; over TLS, auto lets ALPN choose h2;
# --max-streams 1 spreads the same load over more connections than the default and, with --connections 1, drops what
# finds the one stream busy (the lab over h2c, stalled); --protocol h2 against an
# HTTP/1.1-only server (the lab) fails fast, naming what to use instead.
source "$OPENLOOP_E2E_LIB"
require_tools nghttpd openssl jq curl
docroot=$E2E_TMP/www
mkdir -p "$docroot"
printf 'hello over h2\n' >"$docroot/index.html"

# h2c: prior knowledge.
port=$(free_port)
nghttpd --no-tls -d "$docroot" "$port" >"$E2E_TMP/nghttpd.log" 2>&1 &
nghttpd_pid=$!
E2E_PIDS+=($nghttpd_pid)
wait_port "$port"
code=0
"$OPENLOOP" run "http://127.0.0.1:$port/index.html" --protocol h2 --rate 500/s --duration 2s --threads 1 \
  --json "$E2E_TMP/h2c.json" >"$E2E_TMP/h2c.txt" || code=$?
r=$E2E_TMP/h2c.json
# A busy host may send late; nothing else may make the run INVALID.
accept_invalid_only_for "$code" "$r" '^send lateness'
assert_conserved "$r"
assert_cmp "$(json "$r" .summary.counts.completed)" == "$(json "$r" .summary.counts.intended)" "all completed"
assert_cmp "$(json "$r" .summary.counts.ok)" == "$(json "$r" .summary.counts.completed)" "all ok"
[[ $(json "$r" .generator.protocol) == h2 ]] || fail "results name h2, got $(json "$r" .generator.protocol)"
[[ $(json "$r" .plan.protocol) == h2 ]] || fail "plan says h2"
assert_cmp "$(json "$r" .generator.connections_by_protocol.h2)" ">=" 1 "h2 connections counted"
assert_cmp "$(json "$r" .generator.connections_by_protocol.h1)" == 0 "no h1 connection"
grep -q 'protocol h2' "$E2E_TMP/h2c.txt" || fail "summary names the protocol"
pass "h2c prior knowledge: all completed, conserved, protocol h2 ($(json "$r" .generator.connections_by_protocol.h2) connections)"

# --max-streams 1 against the default, against the lab over h2c frozen 300 ms of every second so requests pile up:
# the default multiplexes them on a few connections, one stream per connection needs one connection each.
start_lab --http2 --service 1ms --workers 200 --stall 300ms/1s
# stalled_run OUT.json FLAGS...: 2 s at 500/s (3 s until stop 47): any 2 s of the lab's 1-s cycle hold a whole
# 300-ms stall, which piles up 150 arrivals (100 connections are required of --max-streams 1).
stalled_run() {
  local out=$1; shift
  set +e
  "$OPENLOOP" run "$LAB_URL/" --http2 "$@" --rate 500/s --duration 2s --threads 1 --json "$out" >/dev/null
  set -e
}
stalled_run "$E2E_TMP/many.json"
stalled_run "$E2E_TMP/one.json" --max-streams 1
m=$E2E_TMP/many.json o=$E2E_TMP/one.json
assert_conserved "$m"
assert_conserved "$o"
assert_cmp "$(json "$m" .summary.counts.completed)" == "$(json "$m" .summary.counts.intended)" "all completed"
assert_cmp "$(json "$o" .summary.counts.completed)" == "$(json "$o" .summary.counts.intended)" "all completed"
many_conns=$(json "$m" .generator.connections_by_protocol.h2)
one_conns=$(json "$o" .generator.connections_by_protocol.h2)
assert_cmp "$one_conns" ">=" 100 "--max-streams 1: a connection per request piled up in the stall"
assert_cmp "$many_conns" "<=" 10 "default: the piled-up requests share a few connections"
[[ $(json "$o" .plan.max_streams) == 1 ]] || fail "plan records max_streams 1"
pass "stalls of 300 ms: --max-streams 1 opened $one_conns connections, the default $many_conns"

# --connections 1 --max-streams 1 with arrivals faster than one stream serves: slots saturate and drop. The stalled lab
# holds the one stream for up to 300 ms of every second, so arrivals in that window must find it busy; nghttpd served
# a static file fast enough on a quiet host that none did.
set +e
"$OPENLOOP" run "$LAB_URL/" --http2 --max-streams 1 --connections 1 --rate 2000/s \
  --duration 2s --threads 1 --json "$E2E_TMP/sat.json" >/dev/null
set -e
s=$E2E_TMP/sat.json
assert_conserved "$s"
assert_cmp "$(json "$s" .generator.connections_by_protocol.h2)" == 1 "one connection"
assert_cmp "$(json "$s" .summary.counts.dropped)" ">" 0 "arrivals finding the one stream busy are dropped"
pass "one connection, one stream: $(json "$s" .summary.counts.dropped) dropped of $(json "$s" .summary.counts.intended)"

# TLS: auto offers h2 and http/1.1 by ALPN; nghttpd chooses h2.
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$E2E_TMP/key.pem" -out "$E2E_TMP/cert.pem" -days 1 \
  -subj /CN=localhost >/dev/null 2>&1
tport=$(free_port)
nghttpd -d "$docroot" "$tport" "$E2E_TMP/key.pem" "$E2E_TMP/cert.pem" >"$E2E_TMP/nghttpd-tls.log" 2>&1 &
E2E_PIDS+=($!)
wait_port "$tport"
code=0
"$OPENLOOP" run "https://127.0.0.1:$tport/index.html" --insecure --rate 200/s --duration 2s --threads 1 \
  --json "$E2E_TMP/tls.json" >/dev/null || code=$?
t=$E2E_TMP/tls.json
accept_invalid_only_for "$code" "$t" '^send lateness'
assert_conserved "$t"
[[ $(json "$t" .generator.protocol) == h2 ]] || fail "ALPN chose h2, got $(json "$t" .generator.protocol)"
[[ $(json "$t" .plan.protocol) == auto ]] || fail "plan says auto"
assert_cmp "$(json "$t" .summary.counts.ok)" == "$(json "$t" .summary.counts.intended)" "all ok over TLS"
pass "https + auto: ALPN chose h2"

# --protocol h2 against an HTTP/1.1-only server: every connection fails at once with the named error.
stop_lab
start_lab
set +e
timeout 20 "$OPENLOOP" run "$LAB_URL/" --protocol h2 --rate 50/s --duration 1s --timeout 2s --threads 1 \
  --json "$E2E_TMP/h1.json" >"$E2E_TMP/h1.txt" 2>&1
code=$?
set -e
[[ $code != 0 && $code != 124 ]] || fail "a run of h2 against HTTP/1.1 must fail, and not hang (exit $code)"
h=$E2E_TMP/h1.json
assert_conserved "$h"
assert_cmp "$(json "$h" .summary.counts.completed)" == 0 "nothing completed"
assert_cmp "$(json "$h" .summary.counts.timeouts)" == 0 "no request waited for its timeout"
grep -q -- "--protocol h1" "$E2E_TMP/h1.txt" || fail "the summary names what to use: $(cat "$E2E_TMP/h1.txt")"
pass "h2 against HTTP/1.1 fails fast (exit $code), naming --protocol h1"

# A protocol that does not exist: exit 2 naming the accepted values.
expect_usage "auto, h1 or h2" "http://127.0.0.1:$port/" --protocol h3 --rate 10/s --duration 1s
pass "--protocol h3 refused"
