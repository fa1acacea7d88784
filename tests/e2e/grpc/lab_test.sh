#!/usr/bin/env bash
# `openloop lab --grpc`: grpcio's own client calls openloop.lab.v1.Lab/Call and reads the lab's reflection (which
# must send exactly what protoc makes of proto/openloop/lab/v1/lab.proto); openloop calls it at a fixed rate with
# the schema from reflection, every call OK and the lab's own count equal to openloop's completed; a lab that sheds
# answers RESOURCE_EXHAUSTED, each call counted once by both sides.
# e2e: light (counts at 200/s equal to the lab's own)
source "$OPENLOOP_E2E_LIB"
source "$(dirname "$0")/grpc_server.sh"
grpc_require
require_tools curl

proto_root=$(cd "$GRPC_DIR/../../../proto" && pwd)

# lab_run NAME ARGS...: calls of the lab's method (schema from reflection), results in NAME.json, log NAME.log.
lab_run() {
  local name=$1 code=0
  shift
  "$OPENLOOP" run "grpc://127.0.0.1:$PORT" --call openloop.lab.v1.Lab/Call --data '{"key": "k1"}' --threads 1 \
    --json "$E2E_TMP/$name.json" --log-requests "$E2E_TMP/$name.log" -q "$@" >"$E2E_TMP/$name.out" 2>&1 || code=$?
  accept_invalid_only_for "$code" "$E2E_TMP/$name.json" '^send lateness'
  assert_conserved "$E2E_TMP/$name.json"
}

start_lab --grpc --body-size 100
protoc -I "$proto_root" -o "$E2E_TMP/lab.pb" "$proto_root/openloop/lab/v1/lab.proto" ||
  fail "protoc cannot compile lab.proto"
"$GRPC_PYTHON" "$GRPC_DIR/lab_client.py" --target "127.0.0.1:$PORT" --lab-protoset "$E2E_TMP/lab.pb" \
  --reflection-protoset "$GRPC_REFLECTION_SET" --body-size 100 || fail "grpcio's client against lab --grpc"
pass "grpcio's client: a call answered with its key and --body-size bytes, reflection sends protoc's lab.proto"

lab_run ok --rate 200/s --duration 2s
r=$E2E_TMP/ok.json
assert_cmp "$(json "$r" .summary.counts.intended)" == 400 "every intended call counted (200/s for 2 s)"
assert_cmp "$(json "$r" .summary.counts.ok)" == 400 "every call OK"
assert_cmp "$(jq -s '[.[] | select(.grpc_status == "OK")] | length' "$E2E_TMP/ok.log")" == 400 "each call's status OK"
# The grpcio client's call, then openloop's.
assert_cmp "$(lab_stats .grpc.calls)" == 401 "the lab counted every call"
assert_cmp "$(lab_stats .completed)" == 401 "the lab's model completed every call"
assert_cmp "$(lab_stats .grpc.reflection_streams)" == 2 "one reflection stream each (grpcio's, openloop's)"
stop_lab
pass "400 calls at 200/s with the schema from the lab's reflection: each OK, the lab counted 400"

# One worker, 20 ms each, shedding at a queue of 2, offered 200/s: most calls are shed at once.
start_lab --grpc --workers 1 --service 20ms --shed-at 2
lab_run shed --rate 200/s --duration 1s --slo none
r=$E2E_TMP/shed.json
exhausted=$(jq -s '[.[] | select(.grpc_status == "RESOURCE_EXHAUSTED")] | length' "$E2E_TMP/shed.log")
ok=$(jq -s '[.[] | select(.grpc_status == "OK")] | length' "$E2E_TMP/shed.log")
assert_cmp "$exhausted" ">=" 100 "most calls shed (RESOURCE_EXHAUSTED)"
assert_cmp "$ok" ">=" 10 "some calls served"
assert_cmp "$(json "$r" .summary.counts.ok)" == "$ok" "OK calls are the run's ok"
assert_cmp "$((ok + exhausted))" == "$(json "$r" .summary.counts.completed)" "every completed call one of the two"
assert_cmp "$(lab_stats .shed)" == "$exhausted" "the lab shed as many as openloop saw RESOURCE_EXHAUSTED"
stop_lab
pass "a shedding lab: $exhausted RESOURCE_EXHAUSTED and $ok OK of $(json "$r" .summary.counts.completed), counted alike"
