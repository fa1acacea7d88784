#!/usr/bin/env bash
# grpc_cost.sh: what a gRPC call costs the generator beside a plain HTTP/2 request (issue 29's bench, first cut).
# Side by side in one session, ROUNDS times, at the same RATE on one worker thread (--spin-below 0, so the CPU is
# work and wake-ups, not polling): `h2` a plain GET over h2c to nginx, `grpc` a unary call with a constant message
# to the e2e gRPC server (tests/e2e/grpc/server.py, Python grpcio), `grpc-templated` the same message with two
# drawn values (rendered and encoded per call); then the same server for both, `openloop lab --grpc` (no service
# time): `lab-h2` a plain GET over h2c, `lab-grpc` a unary call of openloop.lab.v1.Lab/Call (schema from the lab's
# reflection), `lab-grpc-templated` the same call with two values drawn into its key (issue 29's goal: this row within
# 1.3x lab-h2's, the same server for both). The figure is the worker thread's CPU (results' generator.cpu_s) per request sent, in microseconds,
# and the load average beside it. Traffic only to 127.0.0.1; every run bounded.
# usage: bench/grpc_cost.sh [BUILD_DIR]   (env: ROUNDS=3 SECS=10 RATE=500/s)
set -euo pipefail
BUILD=${1:-build/release}
OPENLOOP=$BUILD/src/cli/openloop
ROUNDS=${ROUNDS:-3}
SECS=${SECS:-10}
RATE=${RATE:-500/s}
[[ -x $OPENLOOP ]] || { echo "grpc_cost: $OPENLOOP is not an executable (build it first)" >&2; exit 2; }
export OPENLOOP_E2E_LIB=$(dirname "$0")/../tests/e2e/lib.sh
source "$OPENLOOP_E2E_LIB" "$OPENLOOP"
source "$(dirname "$0")/../tests/e2e/grpc/grpc_server.sh"
grpc_require
start_grpc_server
nginx_port=$(free_port)
start_nginx "$nginx_port" "" " http2"
start_lab --grpc --workers 64 --service 0

common=(--rate "$RATE" --duration "${SECS}s" --threads 1 --spin-below 0 -q)
schema=(--call openloop.test.v1.Bench/Call --proto "$GRPC_PROTOS/bench.proto" --import-path "$GRPC_PROTOS")
# cost NAME ARGS...: one run; prints NAME, µs of worker CPU per request sent, the requests sent and ok.
cost() {
  local name=$1 r=$E2E_TMP/$1.json
  shift
  "$OPENLOOP" run "$@" "${common[@]}" --json "$r" >/dev/null 2>&1 || true
  jq -r --arg n "$name" '"\($n) \(1e6 * .generator.cpu_s / .summary.counts.sent | . * 100 | round / 100) us/request, sent \(.summary.counts.sent), ok \(.summary.counts.ok)"' "$r"
}
for round in $(seq "$ROUNDS"); do
  echo "round $round ($(uptime | sed 's/.*load/load/'))"
  cost h2 "http://127.0.0.1:$nginx_port/" --http2
  cost grpc "$GRPC_URL" "${schema[@]}" --data '{"key": {"id": "user-4711", "n": 4711}, "size": 16}'
  cost grpc-templated "$GRPC_URL" "${schema[@]}" \
    --data '{"key": {"id": "user-{{uniform(1000, 9999)}}", "n": {{zipf(10000, 1.1)}}}, "size": 16}'
  cost lab-h2 "$LAB_URL/" --http2
  cost lab-grpc "grpc://127.0.0.1:$PORT" --call openloop.lab.v1.Lab/Call --data '{"key": "user-4711"}'
  cost lab-grpc-templated "grpc://127.0.0.1:$PORT" --call openloop.lab.v1.Lab/Call \
    --data '{"key": "user-{{uniform(1000, 9999)}}-{{zipf(10000, 1.1)}}"}'
done
