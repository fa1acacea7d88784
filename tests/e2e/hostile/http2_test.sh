#!/usr/bin/env bash
# A hostile HTTP/2 server (hostile_h2_server.py, h2c by prior knowledge): a preface that is not SETTINGS, RST_STREAM on
# every stream, REFUSED_STREAM on every stream, GOAWAY at once, a stream window never opened, a SETTINGS flood, an
# unknown frame type, an oversized header block, DATA on stream 0. Each run ends on time, every request ends once as
# the named outcome, the results are complete and conserved.
source "$OPENLOOP_E2E_LIB"
source "$(dirname "$0")/hostile_lib.sh"

: >"$E2E_TMP/h2.out"
python3 "$(dirname "$0")/hostile_h2_server.py" >"$E2E_TMP/h2.out" 2>"$E2E_TMP/h2.err" &
h2_pid=$!
E2E_PIDS+=("$h2_pid")
for _ in $(seq 200); do
  grep -q '^hostile-h2 ready$' "$E2E_TMP/h2.out" && break
  kill -0 "$h2_pid" 2>/dev/null || fail "the hostile HTTP/2 server exited: $(cat "$E2E_TMP/h2.err")"
  sleep 0.05
done
grep -q '^hostile-h2 ready$' "$E2E_TMP/h2.out" || fail "the hostile HTTP/2 server did not listen within 10 s"
h2_port() { sed -n "s/^hostile-h2 $1 \([0-9]*\)$/\1/p" "$E2E_TMP/h2.out"; }

# example NAME KIND TEXT: the run's example message for KIND errors contains TEXT.
example() {
  json "$R" ".summary.error_examples.$2" | grep -qF -- "$3" ||
    fail "$1: the $2 example does not say '$3': $(json_or_null "$R" ".summary.error_examples.$2")"
}

# The six light behaviours at once (hostile_start: 20 arrivals at 40/s each, a nearly idle generator, the server's
# answers immediate or never), each judged below; then, alone, the refused streams (their resends are counted against
# the deadline, round trip by round trip) and the Python server's two heavy answers.
hostile_start bad_preface "http://127.0.0.1:$(h2_port bad_preface)/" --http2
hostile_start rst_every "http://127.0.0.1:$(h2_port rst_every)/" --http2
hostile_start goaway_at_once "http://127.0.0.1:$(h2_port goaway_at_once)/" --http2
hostile_start window_closed "http://127.0.0.1:$(h2_port window_closed)/" --http2 --method POST --body hello
hostile_start unknown_frame "http://127.0.0.1:$(h2_port unknown_frame)/" --http2
hostile_start data_on_stream0 "http://127.0.0.1:$(h2_port data_on_stream0)/" --http2

# The connection fails at once with every stream it carries, those already written included (a parse error each,
# none waits for its timeout, none resent to the same server), and the example names the preface. Most requests'
# HEADERS were never written: they were never sent, which the verdict names.
hostile_join bad_preface
accept_invalid_only_for "$CODE" "$R" '^send lateness' '^sent [0-9]+ of 20 intended requests'
expect_errors bad_preface parse
assert_cmp "$(json "$R" .summary.counts.timeouts)" == 0 "bad_preface: no request waited for its timeout"
assert_cmp "$(json "$R" .summary.counts.resent)" == 0 "bad_preface: nothing resent to a server that does not speak HTTP/2"
example bad_preface parse 'did not answer the HTTP/2 connection preface with SETTINGS'

hostile_join rst_every
accept_invalid_only_for "$CODE" "$R" '^send lateness'
expect_errors rst_every reset
example rst_every reset 'INTERNAL_ERROR'
assert_cmp "$(json "$R" .summary.counts.resent)" == 0 "rst_every: a stream reset with INTERNAL_ERROR is not resent"

# GOAWAY before any stream: every stream is above its last stream id, resent on a new connection, refused again.
hostile_join goaway_at_once
accept_invalid_only_for "$CODE" "$R" '^send lateness'
expect_errors goaway_at_once reset
assert_cmp "$(json "$R" .summary.counts.resent)" ">=" 20 "goaway_at_once: the refused streams were resent"
assert_cmp "$(json "$R" .generator.connections_by_protocol.h2)" ">" 20 "goaway_at_once: new connections for them"

# A request body against a stream window of 0: its DATA can never go out; every request times out at its deadline.
hostile_join window_closed
accept_invalid_only_for "$CODE" "$R" '^send lateness'
expect_timeouts window_closed
assert_cmp "$(json "$R" .summary.counts.sent)" == 20 "window_closed: every request's HEADERS went out"

# A frame of an unknown type, on the connection and on the stream, before each response: ignored (RFC 9113 4.1).
hostile_join unknown_frame
accept_invalid_only_for "$CODE" "$R" '^send lateness'
expect_ok unknown_frame
assert_cmp "$(json "$R" .generator.connections_by_protocol.h2)" == 1 "unknown_frame: one connection kept throughout"

# DATA on stream 0 (PROTOCOL_ERROR): nghttp2 ends the session with GOAWAY; every stream on it fails at once as a
# parse error naming the cause, and nothing waits out its timeout.
hostile_join data_on_stream0
accept_invalid_only_for "$CODE" "$R" '^send lateness'
expect_errors data_on_stream0 parse
example data_on_stream0 parse PROTOCOL_ERROR
assert_cmp "$(json "$R" .summary.counts.timeouts)" == 0 "data_on_stream0: no timeouts"

# Refused streams are resent (waiting 0, 1, 2, 4 ... ms) until the next could not start before the 500 ms deadline:
# then the refusal is the request's error.
hostile_run refuse_every "http://127.0.0.1:$(h2_port refuse_every)/" --http2
accept_invalid_only_for "$CODE" "$R" '^send lateness'
expect_errors refuse_every reset
example refuse_every reset 'REFUSED_STREAM'
resent=$(json "$R" .summary.counts.resent)
assert_cmp "$resent" ">=" 160 "refuse_every: each request resent at least 8 times"
assert_cmp "$resent" "<=" 200 "refuse_every: each request resent at most 10 times"
assert_cmp "$(json "$R" .summary.counts.attempts)" == $((20 + resent)) "refuse_every: attempts = sent + resent"

# 10,000 SETTINGS frames before each response: nghttp2 stops acking past 1,000 queued acks and ends the session as a
# flood; every request a parse error naming it, each on a new connection. (This and the 256 KiB header block below
# are the Python server's heavy answers: their 20 arrivals over 1 s, not 0.5.)
HOSTILE_RATE=20/s HOSTILE_DURATION_MS=1000 \
  hostile_run settings_flood "http://127.0.0.1:$(h2_port settings_flood)/" --http2
accept_invalid_only_for "$CODE" "$R" '^send lateness'
expect_errors settings_flood parse
json "$R" .summary.error_examples.parse | grep -qi 'flood' ||
  fail "settings_flood: the parse example does not name the flood: $(json "$R" .summary.error_examples.parse)"

# A connection error the server causes, as DATA on stream 0 above: a 256 KiB header block (past nghttp2's 64 KiB
# bound on a header field: COMPRESSION_ERROR). nghttp2 ends the session with GOAWAY; the connection fails at once
# with every stream on it, as a parse error naming the cause, and nothing waits out its timeout.
HOSTILE_RATE=20/s HOSTILE_DURATION_MS=1000 \
  hostile_run oversized_headers "http://127.0.0.1:$(h2_port oversized_headers)/" --http2
accept_invalid_only_for "$CODE" "$R" '^send lateness'
expect_errors oversized_headers parse
example oversized_headers parse COMPRESSION_ERROR
assert_cmp "$(json "$R" .summary.counts.timeouts)" == 0 "oversized_headers: no timeouts"

pass "hostile HTTP/2 servers: each behaviour survived, named and conserved"
