#!/usr/bin/env bash
# coalesce_sweep: what --coalesce trades, side by side in one run against one nginx worker on loopback: CPU per
# request against send lateness, at each rate, for each window, in alternating rounds (this machine is noisy: only
# neighbouring rounds compare). h2load's fixed-rate mode at the same rates is the peer row.
# Usage: bench/coalesce_sweep.sh BUILD_DIR   (env: SECONDS_PER_RUN=10, RATES="20000 50000", WINDOWS="0 50us 100us
# 200us", ROUNDS=3). Traffic only to 127.0.0.1; every run is bounded.
set -euo pipefail
BUILD=${1:-build/release}
OPENLOOP=$BUILD/src/cli/openloop
SECS=${SECONDS_PER_RUN:-10}
export OPENLOOP_E2E_LIB=$(dirname "$0")/../tests/e2e/lib.sh
source "$OPENLOOP_E2E_LIB" "$OPENLOOP"

port=$(free_port)
start_nginx "$port"
url=http://127.0.0.1:$port/
taskset -pc 0 "$(nginx_worker_pid)" >/dev/null
GEN="taskset -c 1"
cpu_per_request() { # /usr/bin/time output, responses → µs
  awk -v n="$2" '/^user/ {u=$2} /^sys/ {s=$2} END {printf "%.2f", 1e6 * (u + s) / n}' "$1"
}

echo "| rate | generator | round | verdict | CPU µs/request | send lateness p50 / p99 µs | service p50 / p99 µs |"
echo "|---|---|---|---|---|---|---|"
for round in $(seq "${ROUNDS:-3}"); do
  for rate in ${RATES:-20000 50000}; do
    for window in ${WINDOWS:-0 50us 100us 200us}; do
      t=$E2E_TMP/$rate-$window-$round
      /usr/bin/time -f $'user %U\nsys %S' -o "$t.time" $GEN "$OPENLOOP" run "$url" --rate "$rate/s" \
        --duration "${SECS}s" --warmup 1s --threads 1 -q --coalesce "$window" --json "$t.json" >/dev/null || true
      n=$(jq '.summary.counts.completed + .warmup.counts.completed' "$t.json")
      echo "| $rate/s | openloop --coalesce $window | $round | $(jq -r 'if .verdict.valid then "VALID" else "INVALID" end' "$t.json") | $(cpu_per_request "$t.time" "$n") | $(jq -r '[.summary.send_lateness_ms.p50, .summary.send_lateness_ms.p99] | map(. * 1000 | floor) | join(" / ")' "$t.json") | $(jq -r '[.summary.service_time_ms.p50, .summary.service_time_ms.p99] | map(. * 1000 | floor) | join(" / ")' "$t.json") |"
    done
    t=$E2E_TMP/h2-$rate-$round
    /usr/bin/time -f $'user %U\nsys %S' -o "$t.time" $GEN h2load --h1 -t1 -c50 --rps $((rate / 50)) -D "$SECS" "$url" \
      >"$t.txt" 2>&1
    echo "| $rate/s | h2load --h1 --rps (50 conns × $((rate / 50))/s) | $round | n/a | $(cpu_per_request "$t.time" "$(awk '/^requests:/ {print $8}' "$t.txt")") | n/a | n/a |"
  done
done
