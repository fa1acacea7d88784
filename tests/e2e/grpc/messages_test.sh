#!/usr/bin/env bash
# e2e: parallel-safe (counts and the messages the server received; no timing judged)
# Request messages against a real gRPC server (grpcio, tests/e2e/grpc/server.py): a templated --data rendered and
# encoded per call (every call its own message), one whose drawn value does not fit counted as the generator's
# error; --data @FILE holding a JSON array sent in turn; -bin metadata passed on.
source "$OPENLOOP_E2E_LIB"
source "$(dirname "$0")/grpc_server.sh"
grpc_require

base=(--call openloop.test.v1.Bench/Call --proto "$GRPC_PROTOS/bench.proto" --import-path "$GRPC_PROTOS"
  --threads 1 --slo none -q)
run_calls() {
  local name=$1
  shift
  RUN_CODE=0
  "$OPENLOOP" run "$GRPC_URL" "${base[@]}" --json "$E2E_TMP/$name.json" "$@" >"$E2E_TMP/$name.out" 2>&1 ||
    RUN_CODE=$?
}

start_grpc_server
run_calls templated --data '{"key": {"id": "user-{{sequence(1)}}", "n": {{uniform(1, 3)}}}}' --rate 30/s \
  --duration 1s -H 'trace-bin: AAEC'
accept_invalid_only_for "$RUN_CODE" "$E2E_TMP/templated.json" '^send lateness'
assert_conserved "$E2E_TMP/templated.json"
jq -e '.summary.counts | .ok == 30 and .grpc_statuses == {"OK": 30}' "$E2E_TMP/templated.json" >/dev/null ||
  fail "templated: $(jq -c .summary.counts "$E2E_TMP/templated.json")"
stop_grpc_server
assert_cmp "$(grep -c '^key { id: "user-[0-9]*" n: [123] }$' "$GRPC_MESSAGES")" == 30 \
  "30 distinct messages, each its own id: $(head -n 4 "$GRPC_MESSAGES")"
pass "a templated --data: 30 calls, 30 distinct messages rendered and encoded per call; -bin metadata accepted"

start_grpc_server
run_calls unfit --data '{"key": {"n": {{choice(7, seven)}}}}' --rate 20/s --duration 1s --seed 1
[[ $RUN_CODE == 3 ]] || fail "a message that does not fit at run time: exit $RUN_CODE, expected 3 (INVALID)"
assert_conserved "$E2E_TMP/unfit.json"
jq -e '.summary.counts | .errors_by_kind.generator > 0 and .ok > 0 and .ok + .errors_by_kind.generator == 20' \
  "$E2E_TMP/unfit.json" >/dev/null || fail "unfit: $(jq -c .summary.counts "$E2E_TMP/unfit.json")"
jq -e '.summary.error_examples.generator | test("does not fit openloop.test.v1.CallRequest")' "$E2E_TMP/unfit.json" \
  >/dev/null || fail "the generator error's example: $(jq -c .summary.error_examples "$E2E_TMP/unfit.json")"

printf '[{"note": "a"}, {"note": "b", "size": 2}, {"note": "c"}]' >"$E2E_TMP/messages.json"
run_calls array --data "@$E2E_TMP/messages.json" --rate 30/s --duration 1s
accept_invalid_only_for "$RUN_CODE" "$E2E_TMP/array.json" '^send lateness'
jq -e '.summary.by_request | length == 3 and ([.[].counts.ok] == [10, 10, 10])
  and (keys == ["openloop.test.v1.Bench/Call [1]", "openloop.test.v1.Bench/Call [2]", "openloop.test.v1.Bench/Call [3]"])' \
  "$E2E_TMP/array.json" >/dev/null || fail "array: $(jq -c '.summary.by_request | map_values(.counts.ok)' "$E2E_TMP/array.json")"
jq -e '.plan.grpc.call == "openloop.test.v1.Bench/Call"' "$E2E_TMP/array.json" >/dev/null ||
  fail "plan.grpc.call: $(jq -c .plan.grpc "$E2E_TMP/array.json")"
stop_grpc_server
for m in 'note: "a"' 'note: "b" size: 2' 'note: "c"'; do
  grep -qxF "$m" "$GRPC_MESSAGES" || fail "the server never received $m: $(cat "$GRPC_MESSAGES")"
done
pass "a generator error counted for a drawn value that does not fit; an array's 3 messages sent in turn, 10 each"
