#!/usr/bin/env bash
# lab_http2: the lab's HTTP/2 path beside its HTTP/1.1 path, same model settings (service 0: the HTTP layers and the
# model's bookkeeping, not a timer), one connection, in one run with rounds alternating: `h2load -c1 -m100` against
# `lab --http2`, `h2load --h1 -c1 -m100` (100 pipelined) and `wrk -c100` (100 connections) against the h1 lab.
# Prints requests/s of each round. Not a test: no assertion is made.
#
# usage: bench/lab_http2.sh [path/to/openloop]   (default: build/release/src/cli/openloop; build it Release)
# env:   BENCH_REQUESTS (200000) BENCH_ROUNDS (3) BENCH_WRK_DURATION (3s)
set -euo pipefail
cd "$(dirname "$0")/.."
OPENLOOP=${1:-build/release/src/cli/openloop}
REQUESTS=${BENCH_REQUESTS:-200000}
ROUNDS=${BENCH_ROUNDS:-3}
WRK_DURATION=${BENCH_WRK_DURATION:-3s}
for tool in h2load wrk; do command -v "$tool" >/dev/null || { echo "lab_http2: $tool is not installed" >&2; exit 2; }; done
[[ -x $OPENLOOP ]] || { echo "lab_http2: $OPENLOOP is not an executable (build the openloop target)" >&2; exit 2; }

TMP=$(mktemp -d)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]:-}"; do [[ -n $pid ]] && kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT

start_lab() {  # NAME ARGS...: starts a lab, prints its address once it listens (≤ 5 s)
  local name=$1 addr=""
  shift
  "$OPENLOOP" lab --listen 127.0.0.1:0 --service 0 --workers 1 --body-size 3 "$@" >"$TMP/$name.out" 2>&1 &
  PIDS+=("$!")
  for _ in $(seq 100); do
    addr=$(sed -n 's/^lab listening on \(.*\)$/\1/p' "$TMP/$name.out")
    [[ -n $addr ]] && break
    sleep 0.05
  done
  [[ -n $addr ]] || { echo "lab_http2: the $name lab did not start: $(cat "$TMP/$name.out")" >&2; exit 4; }
  echo "$addr"
}
H2=$(start_lab h2 --http2)
H1=$(start_lab h1)

h2load_rate() { sed -n 's/^finished in .*, \([0-9.]*\) req\/s.*/\1/p'; }
echo "lab_http2: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); $REQUESTS requests per h2load run"
printf '| round | h2load -c1 -m100, lab --http2 | h2load --h1 -c1 -m100, lab | wrk -t1 -c100 -d%s, lab |\n|---|---|---|---|\n' "$WRK_DURATION"
for round in $(seq "$ROUNDS"); do
  h2=$(h2load -c1 -m100 -n "$REQUESTS" "http://$H2/" | h2load_rate)
  h1=$(h2load --h1 -c1 -m100 -n "$REQUESTS" "http://$H1/" | h2load_rate)
  wrk=$(wrk -t1 -c100 -d"$WRK_DURATION" "http://$H1/" | sed -n 's/^Requests\/sec: *\([0-9.]*\)/\1/p')
  printf '| %s | %s | %s | %s |\n' "$round" "$h2" "$h1" "$wrk"
done
