#!/usr/bin/env bash
# metrics_scrape: what a Prometheus-style scrape every second costs the generator, side by side in one run against
# one nginx worker on loopback: the same run without --metrics-listen and with it (curl fetching /metrics every
# second, as a scraper would), in alternating rounds (this machine is noisy: only neighbouring rounds compare).
# Columns: the verdict, the worker threads' CPU per request (generator.cpu_s / sent) and send lateness.
# Usage: bench/metrics_scrape.sh BUILD_DIR   (env: SECONDS_PER_RUN=10, RATE=20000, ROUNDS=3). Traffic only to
# 127.0.0.1; every run is bounded.
set -euo pipefail
BUILD=${1:-build/release}
OPENLOOP=$BUILD/src/cli/openloop
SECS=${SECONDS_PER_RUN:-10}
RATE=${RATE:-20000}
export OPENLOOP_E2E_LIB=$(dirname "$0")/../tests/e2e/lib.sh
source "$OPENLOOP_E2E_LIB" "$OPENLOOP"

port=$(free_port)
start_nginx "$port"
url=http://127.0.0.1:$port/

echo "| round | scrape | verdict | worker CPU µs/request | send lateness p50 / p99 µs | scrapes |"
echo "|---|---|---|---|---|---|"
for round in $(seq "${ROUNDS:-3}"); do
  for scrape in no yes; do
    t=$E2E_TMP/$round-$scrape
    extra=()
    scrapes=0
    if [[ $scrape == yes ]]; then
      mport=$(free_port)
      extra=(--metrics-listen "127.0.0.1:$mport")
    fi
    "$OPENLOOP" run "$url" --rate "$RATE/s" --duration "${SECS}s" --warmup 1s -q "${extra[@]}" --json "$t.json" \
      >/dev/null 2>&1 &
    pid=$!
    if [[ $scrape == yes ]]; then
      for _ in $(seq $((SECS + 3))); do
        sleep 1
        kill -0 "$pid" 2>/dev/null || break
        curl -sf --max-time 1 -o /dev/null "http://127.0.0.1:$mport/metrics" && scrapes=$((scrapes + 1)) || true
      done
    fi
    wait "$pid" || true
    jq -r --arg r "$round" --arg s "$scrape" --arg n "$scrapes" '"| \($r) | \($s) | \(if .verdict.valid then "VALID" else "INVALID" end) | \(1e6 * .generator.cpu_s / .summary.counts.sent * 100 | round / 100) | \(.summary.send_lateness_ms.p50 * 1000 | round) / \(.summary.send_lateness_ms.p99 * 1000 | round) | \($n) |"' "$t.json"
  done
done
