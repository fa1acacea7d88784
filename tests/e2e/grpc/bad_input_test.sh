#!/usr/bin/env bash
# e2e: parallel-safe (bad input refused before anything is sent; no server)
# gRPC bad input: each exits 2 before anything is sent, naming the input and what exists or is accepted. The target
# port has nothing listening: a run that sent anything would end with connect errors (exit 4), not 2.
source "$OPENLOOP_E2E_LIB"
source "$(dirname "$0")/grpc_server.sh"
grpc_require

t=grpc://127.0.0.1:9
schema=(--proto "$GRPC_PROTOS/bench.proto" --import-path "$GRPC_PROTOS")
load=(--rate 10/s --duration 1s)

expect_usage "no method Cal; its methods: Call, Watch" "$t" "${schema[@]}" --call openloop.test.v1.Bench/Cal "${load[@]}"
expect_usage "no service openloop.test.v1.Bnch in the schema; its services: openloop.test.v1.Bench" \
  "$t" "${schema[@]}" --call openloop.test.v1.Bnch/Call "${load[@]}"
pass "an unknown method or service exits 2 listing the ones that exist"

expect_usage "server-streaming method; openloop calls unary methods only" \
  "$t" "${schema[@]}" --call openloop.test.v1.Bench/Watch "${load[@]}"
pass "a streaming method exits 2 saying unary only"

expect_usage "--data: the JSON does not fit openloop.test.v1.CallRequest" \
  "$t" "${schema[@]}" --call openloop.test.v1.Bench/Call --data '{"key": {"idd": "a"}}' "${load[@]}"
grep -qF 'idd' "$E2E_TMP/out.txt" || fail "the JSON error does not name the field idd: $(cat "$E2E_TMP/out.txt")"
expect_usage "the JSON does not fit" "$t" "${schema[@]}" --call openloop.test.v1.Bench/Call --data '{"size": "many"}' \
  "${load[@]}"
pass "JSON that does not fit the message exits 2 naming the type and the field"

cp "$GRPC_PROTOS/bench.proto" "$E2E_TMP/"  # away from keys/key.proto, which it imports
expect_usage 'keys/key.proto' "$t" --proto "$E2E_TMP/bench.proto" --call openloop.test.v1.Bench/Call "${load[@]}"
grep -qF -- '--import-path' "$E2E_TMP/out.txt" || fail "a missing import does not say --import-path: $(cat "$E2E_TMP/out.txt")"
pass "a missing import exits 2 naming it and --import-path"

expect_usage "--protoset $E2E_TMP/none.pb: cannot open" "$t" --protoset "$E2E_TMP/none.pb" \
  --call openloop.test.v1.Bench/Call "${load[@]}"
echo "not a descriptor set" >"$E2E_TMP/garbage.pb"
expect_usage "not a FileDescriptorSet" "$t" --protoset "$E2E_TMP/garbage.pb" --call openloop.test.v1.Bench/Call "${load[@]}"
protoc -I "$GRPC_PROTOS" -o "$E2E_TMP/no-imports.pb" "$GRPC_PROTOS/bench.proto"
expect_usage "does not resolve" "$t" --protoset "$E2E_TMP/no-imports.pb" --call openloop.test.v1.Bench/Call "${load[@]}"
pass "an unreadable protoset, one that is not a descriptor set, and one without its imports exit 2"

expect_usage "no schema from server reflection: cannot connect: 127.0.0.1:9: Connection refused; pass --proto FILE or --protoset FILE" "$t" --call openloop.test.v1.Bench/Call "${load[@]}"
expect_usage "needs --call" "$t" "${schema[@]}" "${load[@]}"
expect_usage '"FOUND" is not a gRPC status' "$t" "${schema[@]}" --call openloop.test.v1.Bench/Call \
  --grpc-success OK,FOUND "${load[@]}"
grep -qF "UNAVAILABLE, DATA_LOSS, UNAUTHENTICATED (or their codes 0..16)" "$E2E_TMP/out.txt" ||
  fail "an unknown status does not list the 17: $(cat "$E2E_TMP/out.txt")"
expect_usage "--data (each {{...}} as 0): the JSON does not fit openloop.test.v1.CallRequest" "$t" "${schema[@]}" \
  --call openloop.test.v1.Bench/Call --data '{"note": {{uniform(1, 9)}}}' "${load[@]}"
expect_usage "--data: the JSON array holds no message" "$t" "${schema[@]}" --call openloop.test.v1.Bench/Call \
  --data '[]' "${load[@]}"
expect_usage "--data [2]: the JSON does not fit" "$t" "${schema[@]}" --call openloop.test.v1.Bench/Call \
  --data '[{"note": "a"}, {"note": 1, "size": "x"}]' "${load[@]}"
expect_usage "trace-bin is binary metadata" "$t" "${schema[@]}" --call openloop.test.v1.Bench/Call \
  -H 'trace-bin: not base64!' "${load[@]}"
expect_usage "--send-deadline: a gRPC call's deadline goes out as grpc-timeout" "$t" "${schema[@]}" \
  --call openloop.test.v1.Bench/Call --send-deadline X-Deadline "${load[@]}"
expect_usage "grpc-timeout is reserved by gRPC" "$t" "${schema[@]}" --call openloop.test.v1.Bench/Call \
  -H 'grpc-timeout: 1S' "${load[@]}"
expect_usage "--call: needs a grpc:// or grpcs:// target" http://127.0.0.1:9/ --call a.B/C "${load[@]}"
expect_usage "grpc://host:port or grpcs://host:port" grpc://127.0.0.1:9/openloop.test.v1.Bench/Call "${schema[@]}" \
  --call openloop.test.v1.Bench/Call "${load[@]}"
pass "no schema, no --call, an unknown status, a template or array message that does not fit, bad -bin metadata, --send-deadline, reserved metadata, gRPC flags on http://, a path: exit 2"

# ramp and probe: gRPC flags without a gRPC target, and what they cannot do with one (--simulate, --targets, HTTP
# flags), each exit 2 before anything is sent.
call=(--call openloop.test.v1.Bench/Call)
probe=(probe metastable --base 10/s --trigger load:20/s)
expect_cmd_usage() {  # expect_cmd_usage MESSAGE ARGS...: `openloop ARGS` exits 2 with MESSAGE in its output
  local want=$1 code=0
  shift
  "$OPENLOOP" "$@" >"$E2E_TMP/out.txt" 2>&1 || code=$?
  [[ $code == 2 ]] || fail "'$*' exit $code, expected 2: $(cat "$E2E_TMP/out.txt")"
  grep -qF -- "$want" "$E2E_TMP/out.txt" || fail "'$*' message lacks '$want': $(cat "$E2E_TMP/out.txt")"
}
expect_cmd_usage "--call: needs a grpc:// or grpcs:// target" ramp http://127.0.0.1:9/ --from 10/s "${call[@]}"
expect_cmd_usage "--data: needs a grpc:// or grpcs:// target" "${probe[@]}" http://127.0.0.1:9/ --data '{}'
expect_cmd_usage "ramp the grpc:// target against \`openloop lab --grpc\`" ramp "$t" --from 10/s "${schema[@]}" \
  "${call[@]}" --simulate '--workers 1'
expect_cmd_usage "probe the grpc:// target against \`openloop lab --grpc\`" "${probe[@]}" "$t" "${schema[@]}" \
  "${call[@]}" --simulate '--workers 1'
expect_cmd_usage "--targets: not with a grpc:// target" ramp "$t" --from 10/s "${schema[@]}" "${call[@]}" --targets x
expect_cmd_usage "--body: a gRPC call's message is --data" "${probe[@]}" "$t" "${schema[@]}" "${call[@]}" --body x
pass "ramp and probe: gRPC flags on http://, --simulate, --targets and --body with grpc://: exit 2"
