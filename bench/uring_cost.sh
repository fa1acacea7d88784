#!/usr/bin/env bash
# uring_cost: what io_uring could save this generator per request (issue 15), against one nginx worker on loopback
# pinned to core 0, the bench pinned to core 1; epoll and io_uring phases alternate in rounds (bench/uring_cost.cpp
# says what each does). Prints the load average before and after: on this shared machine compare only side by side.
# Usage: bench/uring_cost.sh BUILD_DIR   (env: RATE=20000, SECONDS_PER_PHASE=2, ROUNDS=3, CONNS=100, KS=1,5,20,50,
# STAMPS=0; STAMPS=1 reads with the kernel's receive stamps both ways, as coalesced runs do)
# Exits 77 when the bench was not built (no liburing). Traffic only to 127.0.0.1; every run is bounded.
set -euo pipefail
BUILD=${1:-build/release}
BENCH=$BUILD/bench/uring_cost
[[ -x $BENCH ]] || { echo "uring_cost: $BENCH not built (liburing-dev missing when configured)"; exit 77; }
OPENLOOP_E2E_LIB=$(dirname "$0")/../tests/e2e/lib.sh
export OPENLOOP_E2E_LIB
# shellcheck source=tests/e2e/lib.sh
source "$OPENLOOP_E2E_LIB" "$BUILD/src/cli/openloop"

port=$(free_port)
start_nginx "$port"
taskset -pc 0 "$(nginx_worker_pid)" >/dev/null
echo "Load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
timeout 600 taskset -c 1 "$BENCH" "$port" "${RATE:-20000}" "${SECONDS_PER_PHASE:-2}" "${ROUNDS:-3}" "${CONNS:-100}" \
  "${KS:-1,5,20,50}" "${STAMPS:-0}"
echo
echo "Load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
