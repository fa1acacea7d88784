#!/usr/bin/env bash
# h2_vs_h2load: openloop over HTTP/2 beside h2load against the same nginx (h2c, prior knowledge; one worker pinned to
# core 0, each generator to core 1, as bench/run-all pins), one markdown table:
#  - closed loop, 1 connection x 100 streams (openloop --vus 100 --connections 1; h2load -c1 -m100): requests/s and
#    their ratio (issue 28's goal: openloop >= h2load). On a quiet host openloop's verdict is INVALID for its own
#    CPU (a worker busy over 90 % measured itself, not the target): what this row compares, so expected here;
#  - every openloop row's first verdict reason beside it;
#  - open model at 50 % and 90 % of h2load's closed-loop rate, on one connection, beside h2load --rps (which paces
#    submits and measures from them): CPU per request (goal <= 1.2x h2load's), send lateness p99, verdict; and
#    openloop over HTTP/1.1 at the 50 % rate against the same nginx. openloop queues an arrival that finds the
#    connection's 100 streams busy (--on-saturation queue; its latency still from its intended time) where h2load
#    holds it in its own queue, so both do every request's work;
#  - the same open runs with --coalesce $COALESCE (default 1ms: wake at most once per millisecond, as h2load's
#    millisecond timers pace its --rps, sends up to that late and the lateness reported): CPU at h2load's precision;
#  - system calls per request of every run (perf stat's raw_syscalls:sys_enter over the whole process: set-up,
#    timers and openloop's polling through short waits included; its spinning seconds beside) and CPU (task-clock),
#    and openloop's worker threads' own CPU per request beside it (generator.cpu_s: without the process's start-up
#    and the analysis of its results);
#  - the seed's stall: nginx frozen 500 ms every 2 s at 500/s, openloop (latency from intended times) beside h2load
#    --rps (from its submits, and requests it held back in its own queue never measured): coordinated omission shown.
# Usage: bench/h2_vs_h2load.sh OPENLOOP   (env: SECS=5 per run, COALESCE=1ms). Needs nginx, h2load, jq, perf (as
# root, or perf_event_paranoid <= 1 for the tracepoint). Traffic only to 127.0.0.1; every run is bounded.
set -euo pipefail
OPENLOOP=${1:?usage: bench/h2_vs_h2load.sh OPENLOOP}
SECS=${SECS:-5}
COALESCE=${COALESCE:-1ms}
export OPENLOOP_E2E_LIB=$(dirname "$0")/../tests/e2e/lib.sh
source "$OPENLOOP_E2E_LIB" "$OPENLOOP"
require_tools nginx h2load jq perf
start_nginx_h1_h2c_pinned
url=http://127.0.0.1:$port/
LOAD=$(cut -d' ' -f1-3 /proc/loadavg)

# counted OUT CMD...: CMD on core 1 under perf stat (OUT.perf: CPU ms and system calls of the whole process).
counted() {
  local out=$1
  shift
  perf stat -x, -e task-clock,raw_syscalls:sys_enter -o "$out.perf" -- taskset -c 1 "$@"
}
# per_request OUT N: "CPU µs | system calls" per request of N requests, from OUT.perf.
per_request() {
  awk -F, -v n="$2" '$3 ~ /task-clock/ {c = $1} $3 ~ /sys_enter/ {s = $1}
    END { if (n > 0) printf "%.2f | %.2f", 1000 * c / n, s / n; else printf "n/a | n/a" }' "$1.perf"
}
rows=()
# openloop_row LABEL OUT: a table row from an openloop run's results and perf counts.
openloop_row() {
  local n
  n=$(json "$2.json" .summary.counts.completed)
  rows+=("| $1 | $(jq -r 'if .verdict.valid then "VALID" else "INVALID" end' "$2.json") | $(json "$2.json" .summary.counts.dropped) | $(jq -r '.summary.throughput_rps | floor' "$2.json") | $(per_request "$2" "$n") | $(jq -r '.summary.send_lateness_ms.p99 * 1000 | floor' "$2.json") | $(jq -r '.generator.spin_s * 100 | round / 100' "$2.json") | $(jq -r '.generator.connections_by_protocol | add' "$2.json") | $(jq -r --argjson n "$n" 'if $n > 0 then (.generator.cpu_s * 1e8 / $n | round) / 100 else "n/a" end' "$2.json") | $(jq -r '(.verdict.reasons // [])[0] // "" | .[0:90]' "$2.json") |")
}
# h2load_row LABEL OUT: a row from h2load's output (requests succeeded, req/s) and perf counts.
h2load_row() {
  local n rps
  n=$(awk '/^requests:/ {print $8}' "$2.txt")
  rps=$(awk '/^finished in/ {gsub(/,/, "", $4); print int($4)}' "$2.txt")
  rows+=("| $1 | n/a | n/a | $rps | $(per_request "$2" "$n") | n/a | n/a | 1 | n/a | |")
}

t=$E2E_TMP/ol-closed
counted "$t" "$OPENLOOP" run "$url" --http2 --vus 100 --connections 1 --duration "${SECS}s" --threads 1 -q \
  --slo none --json "$t.json" >/dev/null || true
openloop_row "openloop closed, 1 connection x 100 streams" "$t"
ol_closed=$(jq -r '.summary.throughput_rps | floor' "$t.json")
t=$E2E_TMP/h2-closed
counted "$t" h2load -c1 -m100 -D "$SECS" "$url" >"$t.txt" 2>&1
h2load_row "h2load -c1 -m100 (closed)" "$t"
h2_closed=$(awk '/^finished in/ {gsub(/,/, "", $4); print int($4)}' "$t.txt")

for pct in 50 90; do
  rate=$((h2_closed * pct / 100))
  t=$E2E_TMP/ol-open-$pct
  counted "$t" "$OPENLOOP" run "$url" --http2 --rate "$rate/s" --connections 1 --on-saturation queue \
    --duration "${SECS}s" --threads 1 -q --slo none --json "$t.json" >/dev/null || true
  openloop_row "openloop open $rate/s ($pct %), h2c, 1 connection" "$t"
  t=$E2E_TMP/ol-open-$pct-coalesce
  counted "$t" "$OPENLOOP" run "$url" --http2 --rate "$rate/s" --connections 1 --on-saturation queue \
    --coalesce "$COALESCE" --duration "${SECS}s" --threads 1 -q --slo none --json "$t.json" >/dev/null || true
  openloop_row "openloop open $rate/s ($pct %), h2c, 1 connection, --coalesce $COALESCE" "$t"
  t=$E2E_TMP/h2-open-$pct
  counted "$t" h2load -c1 -m100 --rps "$rate" -D "$SECS" "$url" >"$t.txt" 2>&1
  h2load_row "h2load -c1 -m100 --rps $rate ($pct %)" "$t"
  if ((pct == 50)); then
    t=$E2E_TMP/ol-h1-$pct
    counted "$t" "$OPENLOOP" run "http://127.0.0.1:$h1port/" --rate "$rate/s" --duration "${SECS}s" --threads 1 -q \
      --slo none --json "$t.json" >/dev/null || true
    openloop_row "openloop open $rate/s ($pct %), HTTP/1.1" "$t"
  fi
done

# The seed's stall: 500/s for 10 s, nginx's worker frozen 500 ms at 1, 3, 5 and 7 s.
stall_secs=10
t=$E2E_TMP/ol-stall
freeze_periodically "$(nginx_worker_pid)" 1 0.5 2 4
taskset -c 1 "$OPENLOOP" run "$url" --http2 --rate 500/s --duration "${stall_secs}s" --threads 1 -q --slo none \
  --json "$t.json" >/dev/null || true
wait "$FREEZER"
ol_stall=$(jq -r '.summary.response_time_ms | "mean \(.mean * 10 | round / 10) ms, p50 \(.p50 * 10 | round / 10) ms, p99 \(.p99 * 10 | round / 10) ms, max \(.max * 10 | round / 10) ms"' "$t.json")
t=$E2E_TMP/h2-stall
freeze_periodically "$(nginx_worker_pid)" 1 0.5 2 4
taskset -c 1 h2load -c1 -m100 --rps 500 -D "$stall_secs" "$url" >"$t.txt" 2>&1 || true
wait "$FREEZER"
# h2load prints min, max, mean and sd per request: no percentiles.
h2_stall=$(awk '/^time for request:/ {print "mean " $6 ", sd " $7 ", max " $5}' "$t.txt")

echo "Measured $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) cores (load average before: $LOAD, after: $(cut -d' ' -f1-3 /proc/loadavg)); nginx $(nginx -v 2>&1 | sed 's/.*\///') h2c, 1 worker on core 0, each generator on core 1; ${SECS}s per run."
echo
echo "| generator | verdict | dropped | completed/s | CPU µs/request | system calls/request | send lateness p99 µs | spinning s | connections | worker thread CPU µs/request | first reason |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "Closed loop 1 x 100: openloop/h2load = $(awk -v a="$ol_closed" -v b="$h2_closed" 'BEGIN { printf "%.2f", a / b }') (goal >= 1)."
echo
echo "nginx frozen 500 ms every 2 s, 500/s for ${stall_secs}s: openloop (from intended times, the connections the" \
  "pile-up needs): $ol_stall; h2load -c1 -m100 --rps 500 (from its submits): $h2_stall."
