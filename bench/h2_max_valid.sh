#!/usr/bin/env bash
# h2_max_valid: the highest open-model rate openloop holds VALID on one thread against the same nginx (one worker
# pinned to core 0, the generator to core 1, as bench/run-all pins), over h2c (prior knowledge) and over
# HTTP/1.1, and their ratio (issue 28's goal: HTTP/2 >= 1.5x HTTP/1.1). For each protocol a short search: the rate
# doubles from START until a run is INVALID (or MAX), or halves until one is VALID (or below MIN), then STEPS
# bisections between the highest VALID and the lowest INVALID rate. Every run is a table row with its verdict,
# its first reason, CPU and system calls per request (perf stat's task-clock and raw_syscalls:sys_enter over the
# whole process), send lateness p99 and connections (the default count for each protocol).
# SERVER=lab runs the same search against `openloop lab --http2 --service 0` instead (one port serving both
# protocols, pinned likewise): a server whose own ceiling (over 300,000 requests/s to h2load over h2c) is far above
# nginx's one worker (about 70,000/s closed loop here), so the search reaches the generator's limit for each
# protocol rather than the server's.
# Usage: bench/h2_max_valid.sh OPENLOOP   (env: SECS=5 per run, START=10000, MIN=1000, MAX=320000, STEPS=3,
# SERVER=nginx|lab, EXTRA="" more openloop flags for both protocols). Needs nginx (unless SERVER=lab), jq, perf.
# Traffic only to 127.0.0.1; every run is bounded (at most log2(MAX/MIN) + 1 + STEPS runs per protocol).
set -euo pipefail
OPENLOOP=${1:?usage: bench/h2_max_valid.sh OPENLOOP}
SECS=${SECS:-5}
START=${START:-10000}
MIN=${MIN:-1000}
MAX=${MAX:-320000}
STEPS=${STEPS:-3}
EXTRA=${EXTRA:-}
export OPENLOOP_E2E_LIB=$(dirname "$0")/../tests/e2e/lib.sh
source "$OPENLOOP_E2E_LIB" "$OPENLOOP"
SERVER=${SERVER:-nginx}
if [[ $SERVER == lab ]]; then
  require_tools jq perf
  start_lab --http2 --service 0 --workers 1024
  taskset -apc 0 "$LAB_PID" >/dev/null
  port=$PORT h1port=$PORT
  SERVED_BY="openloop lab --http2 --service 0 (both protocols on one port), all its threads on core 0"
else
  [[ $SERVER == nginx ]] || { echo "SERVER: \"$SERVER\" is not a server this bench starts; use nginx or lab" >&2; exit 2; }
  require_tools nginx jq perf
  start_nginx_h1_h2c_pinned
  SERVED_BY="nginx $(nginx -v 2>&1 | sed 's/.*\///') (h2c and HTTP/1.1 ports), 1 worker on core 0"
fi
LOAD=$(cut -d' ' -f1-3 /proc/loadavg)

rows=()
# try PROTO RATE: one run; its row joins the table; returns 0 when VALID.
try() {
  local proto=$1 rate=$2 t=$E2E_TMP/$1-$2 url flags n valid
  if [[ $proto == h2 ]]; then url=http://127.0.0.1:$port/ flags=--http2; else url=http://127.0.0.1:$h1port/ flags=; fi
  # shellcheck disable=SC2086 # flags and EXTRA are words on purpose
  perf stat -x, -e task-clock,raw_syscalls:sys_enter -o "$t.perf" -- taskset -c 1 "$OPENLOOP" run "$url" $flags \
    --rate "$rate/s" --duration "${SECS}s" --threads 1 -q --slo none $EXTRA --json "$t.json" >/dev/null 2>&1 || true
  n=$(json "$t.json" .summary.counts.completed)
  valid=$(jq -r 'if .verdict.valid then "VALID" else "INVALID" end' "$t.json")
  rows+=("| $proto | $rate/s | $valid | $(jq -r '.summary.throughput_rps | floor' "$t.json") | $(awk -F, -v n="$n" \
    '$3 ~ /task-clock/ {c = $1} $3 ~ /sys_enter/ {s = $1} END {if (n > 0) printf "%.2f | %.2f", 1000 * c / n, s / n; else printf "n/a | n/a"}' \
    "$t.perf") | $(jq -r '.summary.send_lateness_ms.p99 * 1000 | floor' "$t.json") | $(jq -r '.generator.connections_by_protocol | add' "$t.json") | $(jq -r '(.verdict.reasons // [])[0] // "" | .[0:90]' "$t.json") |")
  [[ $valid == VALID ]]
}
# search PROTO: best[PROTO] = the highest VALID rate found (0: none down to MIN).
declare -A best
search() {
  local proto=$1 lo=0 hi=0 rate=$START mid i
  if try "$proto" "$rate"; then
    lo=$rate
    for ((rate = START * 2; rate <= MAX; rate *= 2)); do
      if try "$proto" "$rate"; then lo=$rate; else hi=$rate && break; fi
    done
  else
    hi=$rate
    for ((rate = START / 2; rate >= MIN; rate /= 2)); do
      if try "$proto" "$rate"; then lo=$rate && break; else hi=$rate; fi
    done
  fi
  if ((hi > 0 && lo > 0)); then
    for ((i = 0; i < STEPS; i++)); do
      mid=$(((lo + hi) / 2))
      if try "$proto" "$mid"; then lo=$mid; else hi=$mid; fi
    done
  fi
  best[$proto]=$lo
}
search h1
search h2

echo "Measured $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) cores (load average before: $LOAD, after: $(cut -d' ' -f1-3 /proc/loadavg)); $SERVED_BY, openloop on core 1, one thread; ${SECS}s per run${EXTRA:+; flags: $EXTRA}."
echo
echo "| protocol | rate | verdict | completed/s | CPU µs/request | system calls/request | send lateness p99 µs | connections | first reason |"
echo "|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "Highest VALID open rate on one thread: HTTP/1.1 ${best[h1]}/s, h2c ${best[h2]}/s; h2c/HTTP/1.1 =" \
  "$(awk -v a="${best[h2]}" -v b="${best[h1]}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }') (goal >= 1.5)."
