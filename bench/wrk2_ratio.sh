#!/usr/bin/env bash
# wrk2_ratio: openloop's CPU per request as a ratio to wrk2's, side by side in one run, at each timing precision
# (issue 15's goals). nginx (1 worker) pinned to core 0, every generator pinned to core 1, one thread; rounds
# alternate generators so neighbours compare on this noisy machine. wrk2 is not packaged: build it from its public
# source outside this repository and put it on PATH as `wrk2`; without it the script says so and exits 77.
# Usage: bench/wrk2_ratio.sh BUILD_DIR   (env: SECONDS_PER_RUN=8, RATES="20000 50000", ROUNDS=2; EXTRA="--spin-below
# 30us;--coalesce auto" adds openloop variants, ;-separated, with no goal). Each row gives the share of core 1 the
# hypervisor stole during that run (/proc/stat): a run with steal is a run of the host. Traffic only to 127.0.0.1; every run is
# bounded. The load average is printed before and after: figures taken on a busy machine compare only side by side.
set -euo pipefail
BUILD=${1:-build/release}
OPENLOOP=$BUILD/src/cli/openloop
SECS=${SECONDS_PER_RUN:-8}
command -v wrk2 >/dev/null || { echo "wrk2_ratio: wrk2 is not on PATH (build giltene/wrk2 with make; not packaged)"; exit 77; }
export OPENLOOP_E2E_LIB=$(dirname "$0")/../tests/e2e/lib.sh
source "$OPENLOOP_E2E_LIB" "$OPENLOOP"

port=$(free_port)
start_nginx "$port"
url=http://127.0.0.1:$port/
taskset -pc 0 "$(nginx_worker_pid)" >/dev/null
GEN="taskset -c 1"
cpu_us() { awk -v n="$2" '/^user/ {u=$2} /^sys/ {s=$2} END {printf "%.2f", 1e6 * (u + s) / n}' "$1"; }

# The precisions and the goal each is held to (CPU per request as a multiple of wrk2's in the same round).
variants=("precise (default)|" "--coalesce 100us|--coalesce 100us" "--coalesce 1ms|--coalesce 1ms --max-lateness 2ms")
if [[ -n ${EXTRA:-} ]]; then
  IFS=';' read -ra extra <<<"$EXTRA"
  for e in "${extra[@]}"; do variants+=("$e|$e"); done
fi
goal() { # VARIANT RATE → the ratio goal
  case $1 in
    precise*) [[ $2 == 20000 ]] && echo 1.5 || echo 1.0 ;;
    "--coalesce 100us") echo 0.8 ;;
    "--coalesce 1ms") echo 0.5 ;;
    *) echo "no goal" ;;
  esac
}
echo "Load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
# Two more goals of the issue: the precise default's send-lateness p99 ≤ 50 µs, and no stall: p99.9 ≤ 2 × p99 at 50k/s.
echo "| rate | round | generator | verdict | CPU µs/request | ratio to wrk2 (goal) | send lateness p99 / p99.9 µs | p99.9 / p99 (goal) | delivered | steal on core 1 |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for round in $(seq "${ROUNDS:-2}"); do
  for rate in ${RATES:-20000 50000}; do
    t=$E2E_TMP/wrk2-$rate-$round
    s0=$(cpu_ticks 1)
    /usr/bin/time -f $'user %U\nsys %S' -o "$t.time" $GEN wrk2 -t1 -c100 -d"${SECS}s" -R"$rate" "$url" >"$t.txt" 2>&1
    steal=$(steal_pct "$s0" "$(cpu_ticks 1)")
    n=$(awk '/requests in/ {print $1}' "$t.txt")
    base=$(cpu_us "$t.time" "$n")
    echo "| $rate/s | $round | wrk2 -t1 -c100 -R$rate | n/a | $base | 1 | unreported | unreported | $(awk -v n="$n" -v r="$rate" -v s="$SECS" 'BEGIN {printf "%.0f %%", 100 * n / (r * s)}') | $steal % |"
    for v in "${variants[@]}"; do
      name=${v%%|*} flags=${v#*|}
      t=$E2E_TMP/ol-$rate-$round-${name// /}
      s0=$(cpu_ticks 1)
      # shellcheck disable=SC2086 # flags are several words on purpose
      /usr/bin/time -f $'user %U\nsys %S' -o "$t.time" $GEN "$OPENLOOP" run "$url" --rate "$rate/s" \
        --duration "${SECS}s" --threads 1 -q $flags --json "$t.json" >/dev/null || true
      steal=$(steal_pct "$s0" "$(cpu_ticks 1)")
      n=$(jq '.summary.counts.completed + .warmup.counts.completed' "$t.json")
      c=$(cpu_us "$t.time" "$n")
      echo "| $rate/s | $round | openloop $name | $(jq -r 'if .verdict.valid then "VALID" else "INVALID" end' "$t.json") | $c | $(awk -v a="$c" -v b="$base" 'BEGIN {printf "%.2f", a / b}') ($(goal "$name" "$rate")) | $(jq -r '[.summary.send_lateness_ms.p99, .summary.send_lateness_ms.p999] | map(. * 1000 | floor) | join(" / ")' "$t.json")$([[ $name == precise* ]] && echo " (p99 goal ≤ 50)") | $(jq -r '.summary.send_lateness_ms | if .p99 > 0 then .p999 / .p99 * 100 | floor / 100 else "n/a" end' "$t.json")$([[ $rate == 50000 ]] && echo " (≤ 2)") | $(jq -r '.summary.counts.sent / .summary.counts.intended * 100 | floor' "$t.json") % | $steal % |"
    done
  done
done
echo
echo "Load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
