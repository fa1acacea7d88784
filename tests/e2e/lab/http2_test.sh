#!/usr/bin/env bash
# `openloop lab --http2` against real HTTP/2 peers (h2load, nghttp): counts in /_lab/stats match what h2load sent,
# --max-streams is what the SETTINGS say, --refuse-streams-above and --goaway-after as h2load reports them, the
# control plane and Server-Timing over HTTP/2, HTTP/1.1 (curl --http1.1) served on the same port, and bytes that are
# neither the HTTP/2 preface nor HTTP/1.1 get GOAWAY while the lab keeps serving. Bad flags exit 2 naming the flag.
# e2e: light (the lab's counts and SETTINGS as h2load and nghttp see them)
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
require_tools h2load nghttp curl jq od

# h2_query JQ_FILTER: one value from GET /_lab/stats over HTTP/2 (nghttp; one connection and one stream of its own).
h2_query() {
  timeout 10 nghttp "$LAB_URL/_lab/stats" | strict_jq "$LAB_URL/_lab/stats (nghttp)" "$1"
}

# h2load_field OUTPUT WORD: the number before WORD on h2load's "requests:" line ("succeeded", "errored", ...).
h2load_field() {
  local value
  value=$(sed -n "s/^requests: .* \([0-9][0-9]*\) $2.*/\1/p" <<<"$1")
  [[ -n $value ]] || fail "h2load printed no '$2' count: $1"
  echo "$value"
}

expect_lab_usage() {  # MESSAGE ARGS...: `openloop lab ARGS` exits 2 with MESSAGE
  local want=$1 code=0
  shift
  "$OPENLOOP" lab --listen 127.0.0.1:0 --duration 1s "$@" >"$E2E_TMP/usage.txt" 2>&1 || code=$?
  [[ $code == 2 ]] || fail "lab $* exited $code, expected 2: $(cat "$E2E_TMP/usage.txt")"
  grep -qF -- "$want" "$E2E_TMP/usage.txt" || fail "lab $*: message lacks '$want': $(cat "$E2E_TMP/usage.txt")"
}
expect_lab_usage '--max-streams: "0" is not accepted; use an integer from 1 to 65535' --http2 --max-streams 0
expect_lab_usage '--refuse-streams-above: "many" is not accepted' --http2 --refuse-streams-above many
expect_lab_usage '--goaway-after: "-1" is not accepted' --http2 --goaway-after -1
expect_lab_usage '--goaway-after is an HTTP/2 setting; add --http2' --goaway-after 5
pass "bad HTTP/2 flags exit 2 naming the flag and what is accepted"

# --max-streams as h2load obeys it: one worker, 20 streams wanted, 7 allowed: never more than 6 wait behind the one
# in service. (Streams h2load opens before reading the SETTINGS may be refused by nghttp2 itself: counted by h2load.)
# --metrics-listen works with --http2: its scrape reads /_lab/stats over HTTP/1.1 on the lab's h2c port.
mport=$(free_port)
start_lab --http2 --workers 1 --service 2ms --max-streams 7 --metrics-listen "127.0.0.1:$mport"
out=$(timeout 60 h2load -c1 -m20 -n 300 "$LAB_URL/" 2>&1) || fail "h2load failed: $out"
assert_cmp $(($(h2load_field "$out" succeeded) + $(h2load_field "$out" errored))) == 300 "h2load: served or refused"
assert_cmp "$(h2_query '[.history[].max_queue_depth] | max')" == 6 "at most 7 streams at once (one in service)"
pass "--max-streams 7 holds h2load -m20 to 7 streams at once"
curl -sf --max-time 5 "http://127.0.0.1:$mport/metrics" >"$E2E_TMP/m.txt" || fail "no scrape of an --http2 lab"
grep -q '^openloop_lab_up{lab="127.0.0.1:'"$PORT"'"} 1$' "$E2E_TMP/m.txt" || fail "not up: $(head -5 "$E2E_TMP/m.txt")"
assert_cmp "$(awk 'index($0, "openloop_lab_ok_total{") == 1 {print $2}' "$E2E_TMP/m.txt")" == \
  "$(h2load_field "$out" succeeded)" "the scrape counts h2load's answered requests"
pass "--metrics-listen scrapes an --http2 lab"
stop_lab

# Counts: what h2load sent is what the lab counts, stream for stream (-m within --max-streams: nothing refused).
start_lab --http2 --workers 8 --service 200us --max-streams 7 --deadline-header X-Deadline
streams0=$(h2_query .http2.streams)
connections0=$(h2_query .http2.connections)
out=$(timeout 60 h2load -c2 -m7 -n 3000 "$LAB_URL/" 2>&1) || fail "h2load failed: $out"
assert_cmp "$(h2load_field "$out" succeeded)" == 3000 "h2load: every request succeeded"
assert_cmp "$(h2_query .arrivals)" == 3000 "model arrivals = h2load's requests"
assert_cmp "$(h2_query .ok)" == 3000 "model ok = h2load's requests"
# Each h2_query is one connection and one stream (the one reading the numbers included).
assert_cmp "$(h2_query .http2.streams)" == $((streams0 + 3000 + 4)) "http2.streams counts h2load's streams"
assert_cmp "$(h2_query .http2.connections)" == $((connections0 + 2 + 4)) "http2.connections counts h2load's"
assert_cmp "$(h2_query .http2.refused)" == 0 "nothing refused"
pass "3000 requests over 2 connections x 7 streams counted exactly"

# --max-streams 7 is what the lab's SETTINGS advertise.
timeout 10 nghttp -v "$LAB_URL/" >"$E2E_TMP/nghttp.txt" 2>&1 || fail "nghttp failed: $(cat "$E2E_TMP/nghttp.txt")"
grep -A3 'recv SETTINGS frame' "$E2E_TMP/nghttp.txt" | grep -qF 'SETTINGS_MAX_CONCURRENT_STREAMS(0x03):7]' ||
  fail "the lab's SETTINGS lack MAX_CONCURRENT_STREAMS 7: $(cat "$E2E_TMP/nghttp.txt")"
pass "--max-streams 7 advertised in SETTINGS_MAX_CONCURRENT_STREAMS"

# The answer's headers as HTTP/1.1 gives them, with Server-Timing.
grep -qE 'recv \(stream_id=[0-9]+\) :status: 200' "$E2E_TMP/nghttp.txt" || fail "no :status 200"
grep -qE 'recv \(stream_id=[0-9]+\) content-length: 0' "$E2E_TMP/nghttp.txt" || fail "no content-length"
grep -qE 'recv \(stream_id=[0-9]+\) server-timing: queue;dur=[0-9.]+, app;dur=[0-9.]+' "$E2E_TMP/nghttp.txt" ||
  fail "no server-timing: $(cat "$E2E_TMP/nghttp.txt")"
pass "answers carry :status, content-length and server-timing"

# The deadline header as in HTTP/1.1: an unreadable one is 400, counted.
timeout 10 nghttp -v -H 'X-Deadline: soon' "$LAB_URL/" >"$E2E_TMP/nghttp.txt" 2>&1 || true
grep -qE 'recv \(stream_id=[0-9]+\) :status: 400' "$E2E_TMP/nghttp.txt" || fail "bad deadline: no 400"
assert_cmp "$(h2_query .server.bad_deadline)" == 1 "bad deadline counted"

# The control plane over HTTP/2: POST /_lab/config changes the model.
printf '{"workers": 3}' >"$E2E_TMP/config.json"
timeout 10 nghttp -d "$E2E_TMP/config.json" "$LAB_URL/_lab/config" >"$E2E_TMP/post.txt" ||
  fail "POST /_lab/config over HTTP/2 failed"
assert_cmp "$(json "$E2E_TMP/post.txt" .workers)" == 3 "POST /_lab/config answered the new config"
assert_cmp "$(h2_query .workers)" == 3 "the model has 3 workers"
pass "deadline header and /_lab/config over HTTP/2"

# Bytes that are neither the HTTP/2 preface nor an HTTP/1.1 request line: SETTINGS then GOAWAY PROTOCOL_ERROR with
# the reason, then the lab closes.
exec {fd}<>"/dev/tcp/127.0.0.1/$PORT"
printf 'hello\r\n\r\n' >&"$fd"
timeout 5 cat <&"$fd" >"$E2E_TMP/goaway.bin" || fail "the lab did not close a non-HTTP/2 connection within 5 s"
exec {fd}>&-
# Frame after the 15-byte SETTINGS frame: 3 length bytes, type 7 (GOAWAY), flags, stream 0, last stream 0, code 1.
goaway=$(od -An -tx1 -j15 -N17 "$E2E_TMP/goaway.bin" | tr -s ' \n' ' ')
[[ $goaway == ' '??' '??' '??' 07 00 00 00 00 00 00 00 00 00 00 00 00 01 ' ]] ||
  fail "expected GOAWAY PROTOCOL_ERROR after the SETTINGS, got bytes:$goaway"
grep -qF 'expected the HTTP/2 connection preface' "$E2E_TMP/goaway.bin" || fail "the GOAWAY does not say why"
exec {fd}<>"/dev/tcp/127.0.0.1/$PORT"
printf '\x16\x03\x01\x02\x00' >&"$fd"  # a TLS ClientHello's first bytes
timeout 5 cat <&"$fd" >"$E2E_TMP/tls.bin" || fail "the lab did not close a TLS connection within 5 s"
exec {fd}>&-
grep -qF 'expected the HTTP/2 connection preface' "$E2E_TMP/tls.bin" || fail "a TLS ClientHello's start was not refused"
assert_cmp "$(h2_query .http2.bad_preface)" == 2 "both non-HTTP connections counted"
# HTTP/1.1 on the same port: the lab's HTTP/1.1 connection, the same model and counters (openloop's own control
# client speaks it, for the probe's lab triggers and --repeat's reset against an HTTP/2 lab).
status=$(curl -sS --http1.1 --max-time 5 -o /dev/null -w '%{http_code} %{http_version}' "$LAB_URL/") ||
  fail "curl --http1.1 against lab --http2"
[[ $status == "200 1.1" ]] || fail "curl --http1.1 against lab --http2: $status"
assert_cmp "$(h2_query .http2.http1_connections)" == 1 "the HTTP/1.1 connection counted as such"
assert_cmp "$(h2_query .http2.bad_preface)" == 2 "HTTP/1.1 is not a bad preface"
out=$(timeout 30 h2load -c1 -m7 -n 200 "$LAB_URL/" 2>&1) || fail "h2load after other clients: $out"
assert_cmp "$(h2load_field "$out" succeeded)" == 200 "the lab keeps serving after non-HTTP/2 clients"
pass "noise and TLS get GOAWAY PROTOCOL_ERROR, curl --http1.1 is answered 200, the lab keeps serving h2"
stop_lab

# --refuse-streams-above: streams past the bound are refused and h2load reports them as errored.
start_lab --http2 --workers 100 --service 20ms --refuse-streams-above 5
out=$(timeout 60 h2load -c1 -m40 -n 400 "$LAB_URL/" 2>&1) || fail "h2load failed: $out"
succeeded=$(h2load_field "$out" succeeded)
errored=$(h2load_field "$out" errored)
assert_cmp "$errored" '>' 0 "h2load saw refused streams"
assert_cmp "$(h2_query .http2.refused)" == "$errored" "refused streams = h2load's errored"
assert_cmp "$(h2_query .arrivals)" == "$succeeded" "only accepted streams reach the model"
assert_cmp $((succeeded + errored)) == 400 "every h2load request either served or refused"
pass "--refuse-streams-above 5: $errored of 400 refused (REFUSED_STREAM), $succeeded served"
stop_lab

# --goaway-after: GOAWAY NO_ERROR after 10 streams; those 10 are served, h2load reports the rest as not sent.
start_lab --http2 --service 0 --goaway-after 10
out=$(timeout 60 h2load -c1 -m1 -n 50 "$LAB_URL/" 2>&1) || fail "h2load failed: $out"
assert_cmp "$(h2load_field "$out" succeeded)" == 10 "10 streams served before the GOAWAY"
assert_cmp "$(h2_query .arrivals)" == 10 "the model saw 10"
assert_cmp "$(h2_query .http2.goaways)" == 1 "one GOAWAY sent (the queries' connections have one stream each)"
pass "--goaway-after 10: GOAWAY after 10 streams, counted"
stop_lab

# Bodies larger than the output bound and the flow-control windows arrive whole (h2load's large windows, and nghttp's
# 64 KiB default ones).
start_lab --http2 --service 0 --body-size 3000000
out=$(timeout 60 h2load -c1 -m10 -n 20 "$LAB_URL/" 2>&1) || fail "h2load failed: $out"
assert_cmp "$(h2load_field "$out" succeeded)" == 20 "h2load: 20 large answers"
data=$(sed -n 's/^traffic: .*(\([0-9][0-9]*\)) data$/\1/p' <<<"$out")
assert_cmp "${data:-none}" == 60000000 "h2load received every body byte"
assert_cmp "$(timeout 20 nghttp "$LAB_URL/" | wc -c)" == 3000000 "nghttp (64 KiB windows) received the whole body"
pass "3 MB bodies over HTTP/2, whole"
stop_lab
