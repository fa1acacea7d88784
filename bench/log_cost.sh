#!/usr/bin/env bash
# log_cost.sh: what --log-requests and per-phase timings cost per request, side by side in one run. Against one
# nginx worker on loopback (core 0; the generator on core 1 when there are two), ROUNDS alternating rounds of
#   openloop run URL --rate RATE --duration SECS --threads 1 -q --json r.json [--log-requests FILE]
# then the phase and log microbenchmarks (bench/log_cost_bench). Prints a markdown table of CPU per request: the
# workers' (generator.cpu_s) and the whole process's (user + system, the log's writer thread included), each as a
# ratio to the run without the log, and the phases' share of the workers' CPU per request. Traffic only to
# 127.0.0.1; every run bounded. Usage: bench/log_cost.sh BUILD_DIR   (env: RATE=20000 SECS=10 ROUNDS=3)
set -euo pipefail
BUILD=${1:-build/release}
OPENLOOP=$BUILD/src/cli/openloop
RATE=${RATE:-20000}
SECS=${SECS:-10}
ROUNDS=${ROUNDS:-3}
export OPENLOOP_E2E_LIB=$(dirname "$0")/../tests/e2e/lib.sh
source "$OPENLOOP_E2E_LIB" "$OPENLOOP"
port=$(free_port)
start_nginx "$port"
url=http://127.0.0.1:$port/
GEN=()
if [[ $(nproc) -ge 2 ]]; then
  taskset -pc 0 "$(nginx_worker_pid)" >/dev/null
  GEN=(taskset -c 1)
fi

declare -A worker_us process_us
variants=(off file)
for round in $(seq "$ROUNDS"); do
  for v in "${variants[@]}"; do
    t=$E2E_TMP/$v-$round
    log=()
    [[ $v == file ]] && log=(--log-requests "$t.log")
    /usr/bin/time -f $'user %U\nsys %S' -o "$t.time" "${GEN[@]}" "$OPENLOOP" run "$url" --rate "$RATE/s" \
      --duration "${SECS}s" --threads 1 -q --slo none --json "$t.json" "${log[@]}" >"$t.txt" || true
    n=$(jq '.summary.counts.intended + .warmup.counts.intended' "$t.json")
    cpu=$(awk '/^user/ {u=$2} /^sys/ {s=$2} END {print u + s}' "$t.time")
    worker_us[$v-$round]=$(jq -r --argjson n "$n" '1e6 * .generator.cpu_s / $n' "$t.json")
    process_us[$v-$round]=$(awk -v c="$cpu" -v n="$n" 'BEGIN {print 1e6 * c / n}')
    [[ $v == file ]] && { rm -f "$t.log"; dropped=$(jq '.summary.request_log.dropped' "$t.json"); }
    echo "round $round $v: $n requests, workers $(printf %.2f "${worker_us[$v-$round]}") µs/request, process $(printf %.2f "${process_us[$v-$round]}") µs/request, verdict $(jq -r 'if .verdict.valid then "VALID" else "INVALID" end' "$t.json")${dropped:+, log dropped $dropped}" >&2
    unset dropped
  done
done

mean() { # mean of the named array's values for variant $2
  local -n a=$1
  local sum=0 k
  for k in $(seq "$ROUNDS"); do sum=$(awk -v s="$sum" -v x="${a[$2-$k]}" 'BEGIN {print s + x}'); done
  awk -v s="$sum" -v n="$ROUNDS" 'BEGIN {printf "%.2f", s / n}'
}
w_off=$(mean worker_us off); w_file=$(mean worker_us file)
p_off=$(mean process_us off); p_file=$(mean process_us file)

micro=$E2E_TMP/micro.json
"$BUILD/bench/log_cost_bench" --benchmark_format=json --benchmark_min_time=0.2 >"$micro" 2>/dev/null
ns() { jq -r --arg n "$1" '.benchmarks[] | select(.name == $n) | .cpu_time' "$micro"; }
reused=$(ns BM_PhaseRecordReused); fresh=$(ns BM_PhaseRecordNew); push=$(ns BM_RingPush)
json_line=$(ns BM_FormatRecord/0)

echo "| per request ($ROUNDS rounds, $RATE/s for ${SECS}s, $(date -u +%FT%H:%MZ), load $(cut -d' ' -f1-3 /proc/loadavg)) | workers' CPU | ratio | whole process CPU | ratio |"
echo "|---|---|---|---|---|"
echo "| no log (phases on, as always) | $w_off µs | 1.00 | $p_off µs | 1.00 |"
echo "| \`--log-requests FILE\` (JSON lines) | $w_file µs | $(awk -v a="$w_file" -v b="$w_off" 'BEGIN {printf "%.2f", a / b}') | $p_file µs | $(awk -v a="$p_file" -v b="$p_off" 'BEGIN {printf "%.2f", a / b}') |"
echo "| phases: one record per response (reused / new connection) | $(awk -v x="$reused" 'BEGIN {printf "%.3f", x / 1e3}') / $(awk -v x="$fresh" 'BEGIN {printf "%.3f", x / 1e3}') µs | $(awk -v x="$reused" -v b="$w_off" 'BEGIN {printf "%.4f", x / 1e3 / b}') of no log | | |"
echo "| log, worker's share: one record into its ring | $(awk -v x="$push" 'BEGIN {printf "%.3f", x / 1e3}') µs | $(awk -v x="$push" -v b="$w_off" 'BEGIN {printf "%.4f", x / 1e3 / b}') of no log | | |"
echo "| log, writer's share: one JSON line formatted | | | $(awk -v x="$json_line" 'BEGIN {printf "%.3f", x / 1e3}') µs | $(awk -v x="$json_line" -v b="$p_off" 'BEGIN {printf "%.4f", x / 1e3 / b}') of no log |"
