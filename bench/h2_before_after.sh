#!/usr/bin/env bash
# h2_before_after: two openloop binaries side by side over HTTP/2 (and HTTP/1.1) against the same nginx, with h2load
# beside them, in ROUNDS alternating rounds, so a change to the engine's hot path is judged on a loaded host by
# ratios taken in one run (docs/http2.md, "Measured"). nginx has one worker pinned to core 0, each generator runs
# on core 1 under perf stat (task-clock, system calls, context switches of the whole process). Each round: h2load
# -c1 -m100 closed (the ceiling), then at 50 % and 90 % of it, on one connection with --on-saturation queue,
# BEFORE, AFTER and h2load --rps; then HTTP/1.1 at the 50 % rate with BEFORE and AFTER. One table row per run.
# Usage: bench/h2_before_after.sh BEFORE AFTER   (env: SECS=4 per run, ROUNDS=3, EXTRA="" more openloop flags).
# Needs nginx, h2load, jq, perf. Traffic only to 127.0.0.1; every run is bounded (ROUNDS x 9 runs).
set -euo pipefail
BEFORE=${1:?usage: bench/h2_before_after.sh BEFORE AFTER}
AFTER=${2:?usage: bench/h2_before_after.sh BEFORE AFTER}
SECS=${SECS:-4}
ROUNDS=${ROUNDS:-3}
EXTRA=${EXTRA:-}
export OPENLOOP_E2E_LIB=$(dirname "$0")/../tests/e2e/lib.sh
source "$OPENLOOP_E2E_LIB" "$AFTER"
require_tools nginx h2load jq perf
start_nginx_h1_h2c_pinned
url=http://127.0.0.1:$port/

# counted OUT CMD...: CMD on core 1 under perf stat.
counted() {
  local out=$1
  shift
  perf stat -x, -e task-clock,raw_syscalls:sys_enter,context-switches -o "$out.perf" -- taskset -c 1 "$@"
}
# per_request OUT N: "CPU µs | system calls | context switches" per request of N requests.
per_request() {
  awk -F, -v n="$2" '$3 ~ /task-clock/ {c = $1} $3 ~ /sys_enter/ {s = $1} $3 ~ /context-switches/ {w = $1}
    END { if (n > 0) printf "%.2f | %.2f | %.3f", 1000 * c / n, s / n, w / n; else printf "n/a | n/a | n/a" }' "$1.perf"
}
cpu() { awk -F, -v n="$2" '$3 ~ /task-clock/ {c = $1} END { if (n > 0) printf "%.3f", 1000 * c / n; else print 0 }' "$1.perf"; }
echo "Started $(date -u +%Y-%m-%dT%H:%MZ), load average $(cut -d' ' -f1-3 /proc/loadavg); BEFORE=$BEFORE AFTER=$AFTER; ${SECS}s per run${EXTRA:+; flags: $EXTRA}."
echo
echo "| round | run | verdict | completed/s | CPU µs/request | system calls/request | context switches/request | send lateness p99 µs | response time p50 / p99 µs | CPU / h2load's | load |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
# ol ROUND LABEL BIN URL FLAGS... : one openloop run and its row (CPU ratio to $h2cpu when set).
ol() {
  local round=$1 label=$2 bin=$3 u=$4 t n ratio
  shift 4
  t=$E2E_TMP/r$round-$((++runs))
  # shellcheck disable=SC2086 # EXTRA is words on purpose
  counted "$t" "$bin" run "$u" "$@" --duration "${SECS}s" --threads 1 -q --slo none $EXTRA --json "$t.json" \
    >/dev/null 2>&1 || true
  n=$(json "$t.json" .summary.counts.completed)
  ratio=n/a
  [[ -n ${h2cpu:-} ]] && ratio=$(awk -v a="$(cpu "$t" "$n")" -v b="$h2cpu" 'BEGIN { printf "%.2f", a / b }')
  echo "| $round | $label | $(jq -r 'if .verdict.valid then "VALID" else "INVALID" end' "$t.json") | $(jq -r '.summary.throughput_rps | floor' "$t.json") | $(per_request "$t" "$n") | $(jq -r '.summary.send_lateness_ms.p99 * 1000 | floor' "$t.json") | $(jq -r '.summary.response_time_ms | "\(.p50 * 1000 | floor) / \(.p99 * 1000 | floor)"' "$t.json") | $ratio | $(cut -d' ' -f1 /proc/loadavg) |"
}
# h2 ROUND LABEL ARGS...: one h2load run and its row; sets h2cpu (its CPU per request).
h2() {
  local round=$1 label=$2 t n
  shift 2
  t=$E2E_TMP/r$round-$((++runs))
  counted "$t" h2load "$@" -D "$SECS" "$url" >"$t.txt" 2>&1 || true
  n=$(awk '/^requests:/ {print $8}' "$t.txt")
  h2cpu=$(cpu "$t" "$n")
  h2rps=$(awk '/^finished in/ {gsub(/,/, "", $4); print int($4)}' "$t.txt")
  echo "| $round | $label | n/a | $h2rps | $(per_request "$t" "$n") | n/a | n/a | 1.00 | $(cut -d' ' -f1 /proc/loadavg) |"
}
runs=0
for ((round = 1; round <= ROUNDS; round++)); do
  h2 "$round" "h2load -c1 -m100 closed" -c1 -m100
  ceiling=$h2rps
  ol "$round" "before closed 1x100" "$BEFORE" "$url" --http2 --vus 100 --connections 1
  ol "$round" "after closed 1x100" "$AFTER" "$url" --http2 --vus 100 --connections 1
  for pct in 50 90; do
    rate=$((ceiling * pct / 100))
    h2 "$round" "h2load --rps $rate ($pct %)" -c1 -m100 --rps "$rate"
    ol "$round" "before h2c $rate/s ($pct %)" "$BEFORE" "$url" --http2 --rate "$rate/s" --connections 1 --on-saturation queue
    ol "$round" "after h2c $rate/s ($pct %)" "$AFTER" "$url" --http2 --rate "$rate/s" --connections 1 --on-saturation queue
  done
  rate=$((ceiling / 2))
  h2cpu=
  ol "$round" "before HTTP/1.1 $rate/s" "$BEFORE" "http://127.0.0.1:$h1port/" --rate "$rate/s"
  ol "$round" "after HTTP/1.1 $rate/s" "$AFTER" "http://127.0.0.1:$h1port/" --rate "$rate/s"
done
echo
echo "Ended $(date -u +%Y-%m-%dT%H:%MZ), load average $(cut -d' ' -f1-3 /proc/loadavg)."
