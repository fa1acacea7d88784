#!/usr/bin/env bash
# stall_ab: the interval-boundary stall (issue 15: send-lateness p99.9 within 2× p99 at 50k/s), old binary vs new,
# with an A/A control: each round runs OLD once and NEW twice (NEW and NEW'), in a rotating order, so the spread
# between two runs of the same binary shows the noise the OLD/NEW difference has to beat. Pinned like
# bench/wrk2_ratio.sh: nginx (1 worker) on core 0, the generator on core 1, one thread, the precise default.
# Usage: bench/stall_ab.sh OLD_BINARY NEW_BINARY   (env: SECS=8, ROUNDS=3, RATES="50000 20000", FLAGS=extra flags)
# On a machine shared with builds, run it in its own autogroup at high priority, as root:
#   setsid bash -c 'echo -20 > /proc/self/autogroup; bench/stall_ab.sh OLD NEW'
# Traffic only to 127.0.0.1; every run is bounded (--duration). The load average is printed before and after.
set -euo pipefail
OLD=${1:?usage: bench/stall_ab.sh OLD_BINARY NEW_BINARY}
NEW=${2:?usage: bench/stall_ab.sh OLD_BINARY NEW_BINARY}
SECS=${SECS:-8}
export OPENLOOP_E2E_LIB=$(dirname "$0")/../tests/e2e/lib.sh
source "$OPENLOOP_E2E_LIB" "$NEW"
port=$(free_port)
start_nginx "$port"
url=http://127.0.0.1:$port/
taskset -pc 0 "$(nginx_worker_pid)" >/dev/null
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| round | rate | binary | verdict | CPU µs/req | lateness p50 / p99 / p99.9 µs | p99.9/p99 | coordinator CPU ms mean / max (merge, clear, progress) | steal on core 1 |"
echo "|---|---|---|---|---|---|---|---|---|"
for round in $(seq "${ROUNDS:-3}"); do
  case $((round % 3)) in
    1) order="OLD NEW NEW'" ;;
    2) order="NEW OLD NEW'" ;;
    0) order="NEW NEW' OLD" ;;
  esac
  for rate in ${RATES:-50000 20000}; do
    for which in $order; do
      bin=$NEW
      [[ $which == OLD ]] && bin=$OLD
      t=$E2E_TMP/${which//\'/2}-$rate-$round
      s0=$(cpu_ticks 1)
      # shellcheck disable=SC2086
      /usr/bin/time -f $'user %U\nsys %S' -o "$t.time" taskset -c 1 "$bin" run "$url" --rate "$rate/s" \
        --duration "${SECS}s" --threads 1 -q ${FLAGS:-} --json "$t.json" >/dev/null || true
      steal=$(steal_pct "$s0" "$(cpu_ticks 1)")
      n=$(jq '.summary.counts.completed + .warmup.counts.completed' "$t.json")
      cpu=$(awk -v n="$n" '/^user/ {u=$2} /^sys/ {s=$2} END {printf "%.2f", 1e6 * (u + s) / n}' "$t.time")
      echo "| $round | $rate | $which | $(jq -r 'if .verdict.valid then "VALID" else "INVALID" end' "$t.json") | $cpu |" \
        "$(jq -r '[.summary.send_lateness_ms | .p50, .p99, .p999] | map(. * 1000 | floor) | join(" / ")' "$t.json") |" \
        "$(jq -r '.summary.send_lateness_ms | .p999 / .p99 * 100 | floor / 100' "$t.json") |" \
        "$(jq -r '.generator.coordinator_cpu_ms // empty | "\(.mean * 1000 | floor / 1000) / \(.max * 100 | floor / 100) (\(.merge_max * 100 | floor / 100), \(.clear_max * 100 | floor / 100), \(.progress_max * 100 | floor / 100))"' "$t.json") | $steal % |"
    done
  done
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
