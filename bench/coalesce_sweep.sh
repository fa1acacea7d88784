#!/usr/bin/env bash
# coalesce_sweep: what --coalesce trades, side by side in one run against one nginx worker on loopback: CPU per
# request against send lateness, at each rate, for each window, in alternating rounds (this machine is noisy: only
# neighbouring rounds compare). h2load's fixed-rate mode at the same rates is the peer row; wrk2 (not packaged: build
# giltene/wrk2 and put it on PATH as `wrk2`) runs first in each round when it is on PATH, and every openloop row
# then shows its CPU per request as a ratio to wrk2's in that round, beside issue 15's goal for that precision.
# Usage: bench/coalesce_sweep.sh BUILD_DIR   (env: SECONDS_PER_RUN=10, RATES="20000 50000", WINDOWS="0 50us 100us
# 200us auto", ROUNDS=3). Traffic only to 127.0.0.1; every run is bounded.
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
have_wrk2=0
if command -v wrk2 >/dev/null; then
  have_wrk2=1
else
  echo "coalesce_sweep: wrk2 is not on PATH (not packaged: build giltene/wrk2 with make); its rows and the ratios are skipped"
  echo
fi
goal() { # WINDOW RATE → issue 15's goal for the ratio to wrk2 at that precision
  case $1 in
    0) [[ $2 == 20000 ]] && echo "≤ 1.5" || echo "≤ 1.0" ;;
    100us) echo "≤ 0.8" ;;
    1ms) echo "≤ 0.5" ;;
    *) echo "none" ;;
  esac
}
echo "Load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

echo "| rate | generator | round | verdict | CPU µs/request | ratio to wrk2 (goal) | send lateness p50 / p99 µs | service p50 / p99 µs |"
echo "|---|---|---|---|---|---|---|---|"
for round in $(seq "${ROUNDS:-3}"); do
  for rate in ${RATES:-20000 50000}; do
    base=
    if ((have_wrk2)); then
      t=$E2E_TMP/wrk2-$rate-$round
      /usr/bin/time -f $'user %U\nsys %S' -o "$t.time" $GEN wrk2 -t1 -c100 -d"${SECS}s" -R"$rate" "$url" >"$t.txt" 2>&1
      base=$(cpu_per_request "$t.time" "$(awk '/requests in/ {print $1}' "$t.txt")")
      echo "| $rate/s | wrk2 -t1 -c100 -R$rate | $round | n/a | $base | 1 | unreported | unreported |"
    fi
    for window in ${WINDOWS:-0 50us 100us 200us auto}; do
      t=$E2E_TMP/$rate-$window-$round
      # At wrk2's own precision (1 ms) the run is judged with --max-lateness 2ms, as issue 15's goal says.
      extra=()
      [[ $window == 1ms ]] && extra=(--max-lateness 2ms)
      /usr/bin/time -f $'user %U\nsys %S' -o "$t.time" $GEN "$OPENLOOP" run "$url" --rate "$rate/s" \
        --duration "${SECS}s" --warmup 1s --threads 1 -q --coalesce "$window" "${extra[@]}" --json "$t.json" >/dev/null || true
      n=$(jq '.summary.counts.completed + .warmup.counts.completed' "$t.json")
      c=$(cpu_per_request "$t.time" "$n")
      ratio=n/a
      [[ -n $base ]] && ratio="$(awk -v a="$c" -v b="$base" 'BEGIN {printf "%.2f", a / b}') ($(goal "$window" "$rate"))"
      label="openloop --coalesce $window"
      [[ $window == auto ]] && label+=" ($(jq -r '[.intervals[].coalesce_us // empty] | if length > 0 then "\(min|floor)–\(max|floor) µs" else "no interval" end' "$t.json"))"
      echo "| $rate/s | $label | $round | $(jq -r 'if .verdict.valid then "VALID" else "INVALID" end' "$t.json") | $c | $ratio | $(jq -r '[.summary.send_lateness_ms.p50, .summary.send_lateness_ms.p99] | map(. * 1000 | floor) | join(" / ")' "$t.json") | $(jq -r '[.summary.service_time_ms.p50, .summary.service_time_ms.p99] | map(. * 1000 | floor) | join(" / ")' "$t.json") |"
    done
    t=$E2E_TMP/h2-$rate-$round
    /usr/bin/time -f $'user %U\nsys %S' -o "$t.time" $GEN h2load --h1 -t1 -c50 --rps $((rate / 50)) -D "$SECS" "$url" \
      >"$t.txt" 2>&1
    echo "| $rate/s | h2load --h1 --rps (50 conns × $((rate / 50))/s) | $round | n/a | $(cpu_per_request "$t.time" "$(awk '/^requests:/ {print $8}' "$t.txt")") | n/a | n/a | n/a |"
  done
done
echo
echo "Load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
