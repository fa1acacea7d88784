# grpc_server.sh: sourced by tests/e2e/grpc/*_test.sh after lib.sh. The test schema compiled by protoc
# (a test-only dependency), the Python grpcio server (server.py) started and stopped, and lab_stats for the tests
# against `openloop lab --grpc`.
GRPC_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
GRPC_PROTOS=$GRPC_DIR/protos
GRPC_PYTHON=/usr/bin/python3  # Debian's python3-grpcio serves this interpreter, whatever python3 is first on PATH

# grpc_require: skips the test (77) without protoc or Debian's grpcio; else writes the descriptor set $GRPC_SET.
grpc_require() {
  require_tools jq protoc
  "$GRPC_PYTHON" -c 'import grpc, google.protobuf' 2>/dev/null ||
    { echo "SKIP: python3-grpcio is not installed for $GRPC_PYTHON (scripts/install-deps)"; exit 77; }
  GRPC_SET=$E2E_TMP/bench.protoset
  protoc -I "$GRPC_PROTOS" --include_imports -o "$GRPC_SET" "$GRPC_PROTOS/bench.proto" ||
    fail "protoc could not compile $GRPC_PROTOS/bench.proto"
  GRPC_REFLECTION_SET=$E2E_TMP/reflection.protoset
  protoc -I "$GRPC_PROTOS" -o "$GRPC_REFLECTION_SET" "$GRPC_PROTOS/grpc/reflection/v1/reflection.proto" ||
    fail "protoc could not compile the reflection .proto"
}

# start_grpc_server [DELAY_MS [REFLECTION]]: starts server.py (REFLECTION: off, v1 or v1alpha; default off) and waits
# (≤ 10 s) for its port; sets GRPC_URL, GRPC_PID.
start_grpc_server() {
  local delay=${1:-0} reflection=${2:-off} deadline=$((SECONDS + 10))
  rm -f "$E2E_TMP/grpc.port" "$E2E_TMP/grpc.count" "$E2E_TMP/grpc.count.reflection" "$E2E_TMP/grpc.times"
  "$GRPC_PYTHON" "$GRPC_DIR/server.py" --protoset "$GRPC_SET" --port-file "$E2E_TMP/grpc.port" \
    --count-file "$E2E_TMP/grpc.count" --times-file "$E2E_TMP/grpc.times" --delay-ms "$delay" \
    --reflection "$reflection" --reflection-protoset "$GRPC_REFLECTION_SET" 2>"$E2E_TMP/grpc.err" &
  GRPC_PID=$!
  E2E_PIDS+=("$GRPC_PID")
  until [[ -s $E2E_TMP/grpc.port ]]; do
    kill -0 "$GRPC_PID" 2>/dev/null || fail "the gRPC server exited: $(cat "$E2E_TMP/grpc.err")"
    ((SECONDS < deadline)) || fail "the gRPC server wrote no port in 10 s"
    sleep 0.05
  done
  GRPC_URL=grpc://127.0.0.1:$(cat "$E2E_TMP/grpc.port")
}

# stop_grpc_server: SIGTERM, then waits (≤ 10 s) for its count file; sets GRPC_CALLS (the calls it served) and
# GRPC_MESSAGES (the file: its call count, then every distinct request message), GRPC_REFLECTION_STREAMS and
# GRPC_TIMES (each call's arrival at the server, seconds, one a line).
stop_grpc_server() {
  local deadline=$((SECONDS + 10))
  kill -TERM "$GRPC_PID"
  while kill -0 "$GRPC_PID" 2>/dev/null; do
    ((SECONDS < deadline)) || fail "the gRPC server did not stop in 10 s"
    sleep 0.05
  done
  [[ -s $E2E_TMP/grpc.count ]] || fail "the gRPC server wrote no count: $(cat "$E2E_TMP/grpc.err")"
  GRPC_CALLS=$(head -n1 "$E2E_TMP/grpc.count")
  GRPC_MESSAGES=$E2E_TMP/grpc.messages.$GRPC_PID
  cp "$E2E_TMP/grpc.count" "$GRPC_MESSAGES"
  GRPC_REFLECTION_STREAMS=$(cat "$E2E_TMP/grpc.count.reflection")
  GRPC_TIMES=$E2E_TMP/grpc.times.$GRPC_PID
  mv "$E2E_TMP/grpc.times" "$GRPC_TIMES"
}

# lab_stats EXPR: a value of `openloop lab --grpc`'s /_lab/stats (read over h2c; HTTP/1.1 on the same port works too).
lab_stats() { curl -sS --max-time 5 --http2-prior-knowledge "$LAB_URL/_lab/stats" | strict_jq "$LAB_URL/_lab/stats" "$1"; }
