#!/usr/bin/env bash
# e2e: parallel-safe (counts and the messages the server received; no timing judged)
# A plan file's gRPC call against a real gRPC server (grpcio, tests/e2e/grpc/server.py), its schema from the plan's
# defaults.grpc (proto and import_paths relative to the plan): a templated message rendered and encoded per call
# (every call its own message), the server's statuses (OK, NOT_FOUND in turn) counted by name and judged by the
# request's grpc_success, the server's own count equal to openloop's completed.
source "$OPENLOOP_E2E_LIB"
source "$(dirname "$0")/grpc_server.sh"
grpc_require

start_grpc_server
cp -r "$GRPC_PROTOS" "$E2E_TMP/protos"
cat >"$E2E_TMP/plan.yaml" <<YAML
target: $GRPC_URL
defaults:
  grpc: {proto: protos/bench.proto, import_paths: [protos]}
requests:
  lookup:
    call: openloop.test.v1.Bench/Call
    message: {key: {id: "user-{{sequence(1)}}"}, note: "cycle:OK,NOT_FOUND"}
    grpc_success: [OK, NOT_FOUND]
scenarios:
  calls: {model: open, rate: 40/s, duration: 1s, request: lookup}
YAML
code=0
"$OPENLOOP" run "$E2E_TMP/plan.yaml" --threads 1 --json "$E2E_TMP/r.json" -q >"$E2E_TMP/r.out" 2>&1 || code=$?
[[ $code == 2 || $code == 4 ]] && fail "the plan did not run (exit $code): $(cat "$E2E_TMP/r.out")"
accept_invalid_only_for "$code" "$E2E_TMP/r.json" '^(calls: )?send lateness'
r=$E2E_TMP/r.json
assert_conserved "$r"
jq -e '.summary.counts | .completed == 40 and .ok == 40 and .grpc_statuses == {"OK": 20, "NOT_FOUND": 20}' "$r" \
  >/dev/null || fail "counts: $(jq -c .summary.counts "$r")"
stop_grpc_server
assert_cmp "$GRPC_CALLS" == "$(json "$r" .summary.counts.completed)" "the server served what openloop completed"
assert_cmp "$(grep -c '^key { id: "user-[0-9]*" } note: "cycle:OK,NOT_FOUND"$' "$GRPC_MESSAGES")" == 40 \
  "40 distinct messages, each its own id: $(head -n 3 "$GRPC_MESSAGES")"
pass "40 calls from a plan file: 20 OK and 20 NOT_FOUND, all ok by grpc_success, 40 distinct messages at the server"
