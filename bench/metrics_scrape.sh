#!/usr/bin/env bash
# metrics_scrape: what a Prometheus-style scrape every second costs the generator, side by side in one run against
# one nginx worker on loopback: the same run without --metrics-listen and with it (curl fetching /metrics every
# second, as a scraper would), in alternating rounds (odd rounds run without first, even rounds with first, so a
# drift of the machine does not favour one side; this machine is noisy: only neighbouring runs compare).
# Columns: the verdict, the worker threads' CPU per request (generator.cpu_s / sent) and send lateness; then, per
# round, the ratio with/without of each (1.00 = no cost), marked INVALID when either run of the pair was (its
# numbers measure a saturated rig, not the scrape), and the median with the spread (min–max) over the VALID pairs
# and over every pair, with the load average before and after (the machine may be shared: say so with the
# numbers).
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
  order="no yes"
  ((round % 2)) || order="yes no"
  for scrape in $order; do
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
    jq -r --arg r "$round" --arg s "$scrape" --arg n "$scrapes" '"| \($r) | \($s) | \(if .verdict.valid then "VALID" else "INVALID: " + (.verdict.reasons | map(tostring) | join("; ")) end) | \(1e6 * .generator.cpu_s / .summary.counts.sent * 100 | round / 100) | \(.summary.send_lateness_ms.p50 * 1000 | round) / \(.summary.send_lateness_ms.p99 * 1000 | round) | \($n) |"' "$t.json"
  done
done

# Ratios with/without per round (neighbouring runs: the fairest comparison on a noisy machine), then the median.
echo
echo "| round | CPU/request with ÷ without | lateness p50 with ÷ without | lateness p99 with ÷ without | pair |"
echo "|---|---|---|---|---|"
ratios=$E2E_TMP/ratios.txt
: >"$ratios"
for round in $(seq "${ROUNDS:-3}"); do
  jq -rn --slurpfile a "$E2E_TMP/$round-no.json" --slurpfile b "$E2E_TMP/$round-yes.json" '
    def cpu(r): r.generator.cpu_s / r.summary.counts.sent;
    def ratio(x; y): if y > 0 then x / y else null end;
    [ratio(cpu($b[0]); cpu($a[0])),
     ratio($b[0].summary.send_lateness_ms.p50; $a[0].summary.send_lateness_ms.p50),
     ratio($b[0].summary.send_lateness_ms.p99; $a[0].summary.send_lateness_ms.p99),
     (if $a[0].verdict.valid and $b[0].verdict.valid then "VALID" else "INVALID" end)] | @tsv' |
    tee -a "$ratios" | awk -v r="$round" -F'\t' '{ printf "| %s | %.2f | %.2f | %.2f | %s |\n", r, $1, $2, $3, $4 }'
done
# summary COLUMN FILTER: "median (min–max)" of a ratio column over the pairs whose verdict matches FILTER.
summary() {
  awk -F'\t' -v want="$2" '$4 ~ want' "$ratios" | cut -f"$1" | sort -g |
    awk '{ v[NR] = $1 } END { if (NR == 0) { print "-"; exit }
      printf "%.2f (%.2f–%.2f)", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, v[1], v[NR] }'
}
valid=$(grep -c $'\tVALID$' "$ratios" || true)
printf "| median (min–max), %s VALID pairs | %s | %s | %s | |\n" "$valid" "$(summary 1 '^VALID$')" \
  "$(summary 2 '^VALID$')" "$(summary 3 '^VALID$')"
printf "| median (min–max), every pair | %s | %s | %s | |\n" "$(summary 1 .)" "$(summary 2 .)" "$(summary 3 .)"
echo
invalid=$(($(wc -l <"$ratios") - valid))
if ((invalid > 0)); then
  echo "$invalid of $(wc -l <"$ratios") pairs had an INVALID run (reasons above): their ratios compare saturated runs, not the scrape's cost; quote the VALID pairs' line"
fi
echo "load average (1, 5, 15 min): before $load_before, after $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs"
