# Unusual but valid framing is read to the end of each response and counted ok: 1 MiB of headers, a body ended by
# the server's half-close, Connection: close on every response, HTTP/1.0 (with and without Content-Length), 1xx
# interim responses before the final one. Connections the response says are done are not reused.
source "$OPENLOOP_E2E_LIB"
source "$(dirname "$0")/hostile_lib.sh"
start_hostile
# 1 MiB per response from a Python server on a loaded machine may take longer than 500 ms: a 2 s timeout for it, and
# its 20 arrivals over 1 s (20 MiB/s to read, not 40).
HOSTILE_RATE=20/s HOSTILE_DURATION_MS=1000 HOSTILE_TIMEOUT_MS=2000 \
  hostile_run header_flood "http://127.0.0.1:$HOSTILE_PORT/header_flood"
accept_invalid_only_for "$CODE" "$R" '^send lateness'
expect_ok header_flood
# The five light ones at once (each 20 small answers at 40/s: a nearly idle generator), then each judged.
for name in half_close close http10 http10_close interim; do
  hostile_start "$name" "http://127.0.0.1:$HOSTILE_PORT/$name"
done
for name in half_close close http10 http10_close interim; do
  hostile_join "$name"
  accept_invalid_only_for "$CODE" "$R" '^send lateness'
  expect_ok "$name"
done
# openloop keeps none of the header section, so it sets no limit on its size: the bytes are counted.
assert_cmp "$(json "$E2E_TMP/header_flood.json" .summary.counts.bytes_in)" ">=" $((20 << 20)) \
  "header_flood: 20 responses of over 1 MiB each read"
# These close the connection (or say it cannot carry another request): one connection per request. The server's
# http10 handler answers one request per connection, so a reused connection would time out.
# (Connections opened before the first arrival are counted with the warm-up.)
opened='.summary.counts.connections_opened + (.warmup.counts.connections_opened // 0)'
for name in half_close close http10 http10_close; do
  assert_cmp "$(json "$E2E_TMP/$name.json" "$opened")" ">=" 20 "$name: a new connection for every request"
done
assert_cmp "$(json "$E2E_TMP/interim.json" '.summary.counts.status_classes["1xx"]')" == 0 \
  "interim: 100 and 103 are not final responses"
assert_cmp "$(json "$E2E_TMP/interim.json" "$opened")" "<" 20 "interim: keep-alive reused"
pass "unusual framing read to the end"
