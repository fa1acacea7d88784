#!/usr/bin/env bash
# A hostile gRPC server (hostile_h2_server.py's grpc_* behaviours, h2c): an answer without grpc-status, a length
# prefix the body does not fill, a 2 GiB message announced (refused at its prefix: the stream reset at once, the
# calls end long before their timeout) and a grpc-status that is not a code. Each call ends once as a named
# protocol error (parse), the results complete and conserved, each run on time.
source "$OPENLOOP_E2E_LIB"
source "$(dirname "$0")/hostile_lib.sh"
require_tools jq

: >"$E2E_TMP/h2.out"
python3 "$(dirname "$0")/hostile_h2_server.py" >"$E2E_TMP/h2.out" 2>"$E2E_TMP/h2.err" &
E2E_PIDS+=("$!")
for _ in $(seq 200); do
  grep -q '^hostile-h2 ready$' "$E2E_TMP/h2.out" && break
  sleep 0.05
done
grep -q '^hostile-h2 ready$' "$E2E_TMP/h2.out" || fail "the hostile HTTP/2 server did not listen within 10 s"
h2_port() { sed -n "s/^hostile-h2 $1 \([0-9]*\)$/\1/p" "$E2E_TMP/h2.out"; }
protos=$(cd "$(dirname "$0")/../grpc/protos" && pwd)
schema=(--call openloop.test.v1.Bench/Call --proto "$protos/bench.proto" --import-path "$protos")

# grpc_case BEHAVIOUR TEXT: every call a parse error whose example says TEXT, none a timeout (the run started
# before by hostile_start: the four at once, each a nearly idle generator against an immediate answer).
grpc_case() {
  hostile_join "$1"
  accept_invalid_only_for "$CODE" "$R" '^send lateness'
  expect_errors "$1" parse
  assert_cmp "$(json "$R" .summary.counts.timeouts)" == 0 "$1: no call waited for its timeout"
  json "$R" .summary.error_examples.parse | grep -qF -- "$2" ||
    fail "$1: the parse example does not say '$2': $(json "$R" .summary.error_examples.parse)"
}

for b in grpc_no_trailers grpc_bad_prefix grpc_huge_message grpc_status_garbage; do
  hostile_start "$b" "grpc://127.0.0.1:$(h2_port "$b")" "${schema[@]}"
done
grpc_case grpc_no_trailers "carried no grpc-status"
grpc_case grpc_bad_prefix "malformed length prefix (it ended inside a message)"
grpc_case grpc_huge_message "announced a message over the 4 MiB limit"
grpc_case grpc_status_garbage "grpc-status is not a status code 0..16"
pass "hostile gRPC answers: each call one named protocol error, none waited, results complete"
