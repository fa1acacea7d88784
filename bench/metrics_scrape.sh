#!/usr/bin/env bash
# metrics_scrape: what a Prometheus-style scrape every second costs the generator, side by side in one run against
# one nginx worker on loopback: the same run without --metrics-listen and with it (curl fetching /metrics every
# second, as a scraper would), in alternating rounds (this machine is noisy: only neighbouring rounds compare).
# Columns: the verdict, the worker threads' CPU per request (generator.cpu_s / sent) and send lateness; then, per
# round, the ratio with/without of each (1.00 = no cost), and the median ratio over the rounds, with the load
# average before and after (the machine may be shared: say so with the numbers).
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

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
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

# Ratios with/without per round (neighbouring runs: the fairest comparison on a noisy machine), then the median.
echo
echo "| round | CPU/request with ÷ without | lateness p50 with ÷ without | lateness p99 with ÷ without |"
echo "|---|---|---|---|"
ratios=$E2E_TMP/ratios.txt
: >"$ratios"
for round in $(seq "${ROUNDS:-3}"); do
  jq -rn --slurpfile a "$E2E_TMP/$round-no.json" --slurpfile b "$E2E_TMP/$round-yes.json" '
    def cpu(r): r.generator.cpu_s / r.summary.counts.sent;
    def ratio(x; y): if y > 0 then x / y else null end;
    [ratio(cpu($b[0]); cpu($a[0])),
     ratio($b[0].summary.send_lateness_ms.p50; $a[0].summary.send_lateness_ms.p50),
     ratio($b[0].summary.send_lateness_ms.p99; $a[0].summary.send_lateness_ms.p99)] | @tsv' |
    tee -a "$ratios" | awk -v r="$round" -F'\t' '{ printf "| %s | %.2f | %.2f | %.2f |\n", r, $1, $2, $3 }'
done
median() { cut -f"$1" "$ratios" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
printf "| median | %.2f | %.2f | %.2f |\n" "$(median 1)" "$(median 2)" "$(median 3)"
echo
echo "load average (1, 5, 15 min): before $load_before, after $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs"
