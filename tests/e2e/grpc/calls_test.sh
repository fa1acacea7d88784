#!/usr/bin/env bash
# Unary calls against a real gRPC server (grpcio, tests/e2e/grpc/server.py) at a fixed rate: every call counted and
# conserved, the server's own count equal to openloop's completed count, the gRPC status in the request log; a
# status the server answers with (NOT_FOUND, a Trailers-Only response) fails the calls unless --grpc-success names
# it; --proto and --protoset send the same message.
# e2e: light (counts at 50-200/s equal to the server's own)
source "$OPENLOOP_E2E_LIB"
source "$(dirname "$0")/grpc_server.sh"
grpc_require

call=(--call openloop.test.v1.Bench/Call)
proto=(--proto "$GRPC_PROTOS/bench.proto" --import-path "$GRPC_PROTOS")
data='{"key": {"id": "k1", "n": 7}, "size": 16}'

# run_calls NAME ARGS...: a run at the test's rate, its results in $E2E_TMP/NAME.json and log in NAME.log.
run_calls() {
  local name=$1 code=0
  shift
  "$OPENLOOP" run "$GRPC_URL" "${call[@]}" --threads 1 --json "$E2E_TMP/$name.json" \
    --log-requests "$E2E_TMP/$name.log" -q "$@" >"$E2E_TMP/$name.out" 2>&1 || code=$?
  RUN_CODE=$code
}

start_grpc_server
run_calls ok "${proto[@]}" --data "$data" --rate 200/s --duration 2s
accept_invalid_only_for "$RUN_CODE" "$E2E_TMP/ok.json" '^send lateness'
r=$E2E_TMP/ok.json
assert_conserved "$r"
intended=$(json "$r" .summary.counts.intended)
assert_cmp "$intended" == 400 "every intended call counted (200/s for 2 s)"
assert_cmp "$(json "$r" .summary.counts.completed)" == "$intended" "every call completed"
assert_cmp "$(json "$r" .summary.counts.ok)" == "$intended" "every call OK"
[[ $(json "$r" .plan.grpc.call) == openloop.test.v1.Bench/Call ]] || fail "plan.grpc.call: $(json "$r" .plan.grpc.call)"
[[ $(json "$r" .plan.target) == "$GRPC_URL" ]] || fail "plan.target: $(json "$r" .plan.target)"
assert_cmp "$(jq -s '[.[] | select(.grpc_status == "OK" and .protocol == "h2")] | length' "$E2E_TMP/ok.log")" == \
  "$intended" "the request log names each call's gRPC status"
stop_grpc_server
assert_cmp "$GRPC_CALLS" == "$intended" "the server's own count equals openloop's completed"
proto_messages=$GRPC_MESSAGES
[[ $(wc -l <"$proto_messages") == 2 ]] || fail "one distinct message expected: $(cat "$proto_messages")"
grep -qF 'key { id: "k1" n: 7 } size: 16' "$proto_messages" || fail "the message sent: $(cat "$proto_messages")"
pass "400 calls at 200/s: each completed OK and counted once, the server counted 400"

start_grpc_server
run_calls protoset --protoset "$GRPC_SET" --data "$data" --rate 50/s --duration 1s
accept_invalid_only_for "$RUN_CODE" "$E2E_TMP/protoset.json" '^send lateness'
assert_cmp "$(json "$E2E_TMP/protoset.json" .summary.counts.ok)" == 50 "every call OK with --protoset"
stop_grpc_server
[[ $(tail -n +2 "$GRPC_MESSAGES") == $(tail -n +2 "$proto_messages") ]] ||
  fail "--protoset sent another message: $(cat "$GRPC_MESSAGES") vs $(cat "$proto_messages")"
pass "--protoset sends the message --proto sends"

start_grpc_server
run_calls not_found "${proto[@]}" --data '{"note": "status:NOT_FOUND"}' --rate 50/s --duration 1s --slo none
r=$E2E_TMP/not_found.json
[[ $RUN_CODE == 0 || $RUN_CODE == 3 ]] || fail "NOT_FOUND run: exit $RUN_CODE: $(cat "$E2E_TMP/not_found.out")"
assert_conserved "$r"
assert_cmp "$(json "$r" .summary.counts.completed)" == 50 "NOT_FOUND answers are completed calls"
assert_cmp "$(json "$r" .summary.counts.ok)" == 0 "NOT_FOUND is not a success by default"
assert_cmp "$(jq -s '[.[] | select(.grpc_status == "NOT_FOUND" and .outcome == "status")] | length' \
  "$E2E_TMP/not_found.log")" == 50 "the log names NOT_FOUND on every call"
run_calls found "${proto[@]}" --data '{"note": "status:NOT_FOUND"}' --rate 50/s --duration 1s \
  --grpc-success NOT_FOUND,ALREADY_EXISTS
assert_cmp "$(json "$E2E_TMP/found.json" .summary.counts.ok)" == 50 "--grpc-success NOT_FOUND,... makes them successes"
[[ $(json "$E2E_TMP/found.json" .plan.success_statuses) == NOT_FOUND,ALREADY_EXISTS ]] ||
  fail "plan.success_statuses: $(json "$E2E_TMP/found.json" .plan.success_statuses)"
stop_grpc_server
assert_cmp "$GRPC_CALLS" == 100 "the server counted both runs' calls"
pass "NOT_FOUND: completed, not ok, named in the log; a success with --grpc-success NOT_FOUND,ALREADY_EXISTS"
