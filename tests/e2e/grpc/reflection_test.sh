#!/usr/bin/env bash
# Server reflection: with neither --proto nor --protoset the schema comes from the server's reflection service
# (tests/e2e/grpc/server.py serving grpc.reflection.v1, or only v1alpha), each answer one file so openloop asks for
# the imports itself; the calls send exactly the bytes --proto sends. A server without reflection (UNIMPLEMENTED
# from both versions), a service it does not know, a server that never answers the stream, and one that does not
# speak HTTP/2 each exit 2 on time, saying to pass --proto or --protoset.
# e2e: light (the bytes sent and exit codes at 50/s; an 8-s bound on refusals)
source "$OPENLOOP_E2E_LIB"
source "$(dirname "$0")/grpc_server.sh"
grpc_require

call=(--call openloop.test.v1.Bench/Call)
data='{"key": {"id": "k1", "n": 7}, "size": 16}'
load=(--rate 50/s --duration 1s --threads 1 -q)

# ok_run NAME CALL ARGS...: 50 calls of CALL, every one OK.
ok_run() {
  local name=$1 method=$2 code=0
  shift 2
  "$OPENLOOP" run "$GRPC_URL" --call "$method" --data "$data" "${load[@]}" --json "$E2E_TMP/$name.json" "$@" \
    >"$E2E_TMP/$name.out" 2>&1 || code=$?
  accept_invalid_only_for "$code" "$E2E_TMP/$name.json" '^send lateness'
  assert_cmp "$(json "$E2E_TMP/$name.json" .summary.counts.ok)" == 50 "$name: every call OK"
}

# Both runs against one server: it keeps each distinct message, so a reflection run that encoded another would
# leave two.
start_grpc_server 0 v1
ok_run proto openloop.test.v1.Bench/Call --proto "$GRPC_PROTOS/bench.proto" --import-path "$GRPC_PROTOS"
ok_run reflection openloop.test.v1.Bench/Call
stop_grpc_server
assert_cmp "$GRPC_REFLECTION_STREAMS" == 1 "one reflection stream, before the load (--proto asks nothing)"
assert_cmp "$GRPC_CALLS" == 100 "the server counted every call"
[[ $(wc -l <"$GRPC_MESSAGES") == 2 ]] || fail "reflection sent another message than --proto: $(cat "$GRPC_MESSAGES")"
grep -qF 'key { id: "k1" n: 7 } size: 16' "$GRPC_MESSAGES" || fail "the message sent: $(cat "$GRPC_MESSAGES")"
pass "reflection v1 (the imported file asked for in turn) gives the bytes --proto gives"

start_grpc_server 0 v1alpha
ok_run v1alpha openloop.test.v1.Bench.Call
expect_usage "answered error 5 (not found) when asked for openloop.test.v1.Nope" "$GRPC_URL" \
  --call openloop.test.v1.Nope/Call "${load[@]}"
stop_grpc_server
pass "a server with only v1alpha reflection: the fallback works; an unknown service exits 2"

start_grpc_server 0 off
expect_usage "ServerReflectionInfo answered UNIMPLEMENTED" "$GRPC_URL" "${call[@]}" "${load[@]}"
grep -qF "pass --proto FILE or --protoset FILE" "$E2E_TMP/out.txt" || fail "no advice: $(cat "$E2E_TMP/out.txt")"
stop_grpc_server
assert_cmp "$GRPC_CALLS" == 0 "nothing called without a schema"
pass "a server without reflection: exit 2, saying to pass --proto or --protoset"

# A server that never answers the stream (HTTP/2 SETTINGS, then silence) and one that is not HTTP/2: exit 2 within
# the --timeout (plus start-up), never a hang.
python3 "$(dirname "$0")/../hostile/hostile_h2_server.py" >"$E2E_TMP/h2.out" 2>"$E2E_TMP/h2.err" &
E2E_PIDS+=("$!")
for _ in $(seq 200); do
  grep -q '^hostile-h2 ready$' "$E2E_TMP/h2.out" && break
  sleep 0.05
done
grep -q '^hostile-h2 ready$' "$E2E_TMP/h2.out" || fail "the hostile HTTP/2 server did not listen within 10 s"
h2_port() { sed -n "s/^hostile-h2 $1 \([0-9]*\)$/\1/p" "$E2E_TMP/h2.out"; }
start=$SECONDS
expect_usage "no answer within 1000 ms (--timeout)" "grpc://127.0.0.1:$(h2_port window_closed)" "${call[@]}" \
  "${load[@]}" --timeout 1s
expect_usage "pass --proto FILE or --protoset FILE" "grpc://127.0.0.1:$(h2_port bad_preface)" "${call[@]}" \
  "${load[@]}" --timeout 1s
assert_cmp $((SECONDS - start)) "<=" 8 "both refusals on time"
pass "a silent server and one that is not HTTP/2: exit 2 on time"
