#!/usr/bin/env bash
# coordinator_core: does the coordinator stall a worker that shares its core? (issue 15: no interval-boundary or
# coordinator stall on a worker's core; send-lateness p99.9 within 2x p99 at 50k/s.) The same binary in each arm, every
# round, pinned like bench/wrk2_ratio.sh (nginx, 1 worker, on core 0; openloop, one thread, on core 1): SHARED
# leaves the coordinator on core 1 with the worker (as on a machine with no spare core), MOVED puts it on core 0
# as soon as it starts (`openloop-coord`, core/thread_name.h). If the coordinator's bursts stalled the worker,
# SHARED's p99.9 would stand above MOVED's round after round; the order alternates, and each row gives the
# worker's wait for a CPU and core 1's steal, so a round the host disturbed shows as such. More arms, changed from
# outside once the thread starts: NICE19 (SCHED_OTHER at nice 19, as before SCHED_IDLE) and NICE0 (a normal thread).
# Usage: bench/coordinator_core.sh BUILD_DIR   (env: RATE=50000, SECS=8, ROUNDS=4, ARMS="SHARED MOVED NICE19 NICE0",
# FLAGS=extra openloop flags)
# Traffic only to 127.0.0.1; every run is bounded (--duration).
set -euo pipefail
BUILD=${1:-build/release}
OPENLOOP=$BUILD/src/cli/openloop
RATE=${RATE:-50000}
SECS=${SECS:-8}
export OPENLOOP_E2E_LIB=$(dirname "$0")/../tests/e2e/lib.sh
source "$OPENLOOP_E2E_LIB" "$OPENLOOP"
port=$(free_port)
start_nginx "$port"
taskset -pc 0 "$(nginx_worker_pid)" >/dev/null
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| round | coordinator | verdict | send lateness p50 / p99 / p99.9 µs | p99.9 / p99 | coordinator CPU ms mean / max | worker waited for a CPU | steal on core 1 |"
echo "|---|---|---|---|---|---|---|---|"
for round in $(seq "${ROUNDS:-4}"); do
  # every arm once per round, the order rotating
  read -ra arms <<<"${ARMS:-SHARED MOVED NICE19 NICE0}"; k=$(( (round - 1) % ${#arms[@]} ))
  order="${arms[*]:k} ${arms[*]:0:k}"
  for which in $order; do
    t=$E2E_TMP/$which-$round
    s0=$(cpu_ticks 1)
    # shellcheck disable=SC2086
    taskset -c 1 "$OPENLOOP" run "http://127.0.0.1:$port/" --rate "$RATE/s" --duration "${SECS}s" --threads 1 -q \
      ${FLAGS:-} --json "$t.json" >/dev/null &
    gen=$!
    case $which in
      MOVED) pin_thread "$gen" openloop-coord 0 || echo "note: the coordinator was not moved" ;;
      NICE19 | NICE0) # from outside, as soon as it starts: SCHED_OTHER at nice 19 or 0, still on core 1
        with_thread "$gen" openloop-coord chrt -o -p 0 || echo "note: the coordinator's policy was not changed"
        with_thread "$gen" openloop-coord renice -n "${which#NICE}" -p >/dev/null || true ;;
    esac
    wait "$gen" || true
    steal=$(steal_pct "$s0" "$(cpu_ticks 1)")
    echo "| $round | $which | $(jq -r 'if .verdict.valid then "VALID" else "INVALID" end' "$t.json") |" \
      "$(jq -r '[.summary.send_lateness_ms | .p50, .p99, .p999] | map(. * 1000 | floor) | join(" / ")' "$t.json") |" \
      "$(jq -r '.summary.send_lateness_ms | if .p99 > 0 then .p999 / .p99 * 100 | floor / 100 else "n/a" end' "$t.json") |" \
      "$(jq -r '.generator.coordinator_cpu_ms // empty | "\(.mean * 1000 | floor / 1000) / \(.max * 100 | floor / 100)"' "$t.json") |" \
      "$(jq -r '.generator.run_delay_s // 0 | . * 1000 | floor' "$t.json") ms | $steal % |"
  done
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
