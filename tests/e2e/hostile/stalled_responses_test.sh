# Responses that never end (a Content-Length larger than the body, an endless chunked body sent as fast as the
# client reads, a 1-byte-per-100-ms drip) and a server that accepts and never reads all end as timeouts at the
# deadline, every one of them; the run ends on time (no hang in a read loop), conserved, its results complete.
source "$OPENLOOP_E2E_LIB"
source "$(dirname "$0")/hostile_lib.sh"
start_hostile
# short_body, drip and never_reads at once (each a nearly idle generator waiting out its deadlines); endless_chunked,
# which keeps a core busy, alone after them.
hostile_start short_body "http://127.0.0.1:$HOSTILE_PORT/short_body"
hostile_start drip "http://127.0.0.1:$HOSTILE_PORT/drip"
hostile_start never_reads "http://127.0.0.1:$SILENT_PORT/"
for name in short_body drip; do
  hostile_join "$name"
  accept_invalid_only_for "$CODE" "$R" '^send lateness'
  expect_timeouts "$name"
done
# Timed out, they keep the phases they reached: each connected (a new connection every time: a cut one is closed)
# and read its first byte, none its whole body.
R=$E2E_TMP/short_body.json
assert_cmp "$(json "$R" '.summary.phases.new_connection.connect_ms.count // 0')" == 20 "short_body: 20 connects"
assert_cmp "$(json "$R" '.summary.phases.new_connection.ttfb_ms.count // 0')" == 20 "short_body: 20 first bytes"
assert_cmp "$(json "$R" '.summary.phases.new_connection.body_ms.count // 0')" == 0 "short_body: no body completed"
pass "short_body: the timed-out requests' connect and first byte are kept, no body"

hostile_join never_reads
accept_invalid_only_for "$CODE" "$R" '^send lateness'
expect_timeouts never_reads
assert_cmp "$(json "$R" .summary.counts.sent)" == 20 "never_reads: every request was written (into the socket buffers)"
assert_cmp "$(json "$R" .summary.counts.bytes_in)" == 0 "never_reads: nothing came back"

# An endless body at full speed keeps the generator busy reading: its CPU may pass the verdict's bound, and that
# may make it send late; nothing else may invalidate the run.
hostile_run endless_chunked "http://127.0.0.1:$HOSTILE_PORT/endless_chunked"
accept_invalid_only_for "$CODE" "$R" '^send lateness' '^generator CPU'
expect_timeouts endless_chunked
