#!/usr/bin/env bash
# metrics_scrape: what a Prometheus-style scrape every second costs the generator, side by side in one run against
# one nginx worker on loopback, on the pinned setup of bench/wrk2_ratio.sh (nginx pinned to core 0, the generator
# pinned to core 1 with one worker thread, so a run is VALID on a quiet machine and the endpoint's thread shares
# the worker's core: the worst case). Four runs a round, their order rotated each round so a drift of the machine
# favours none:
#   none    no --metrics-listen
#   none2   the same again: the A/A control, whose ratio to `none` is this machine's noise
#   listen  --metrics-listen, never scraped (what publishing the run's state each interval costs)
#   scrape  --metrics-listen and a curl of /metrics every second, as a scraper would (the script, its sleep and the
#           curl run on core 0 with nginx: a scraper runs elsewhere, and a process started a second on the
#           worker's core would cost it milliseconds that are not the endpoint's)
# Printed: each run's verdict (an INVALID one with its reasons), the worker threads' CPU per request
# (generator.cpu_s / sent) and send lateness; then per round the ratio to `none` of each, and each ratio's median
# with its spread (min–max) over the rounds whose four runs were VALID, and over every round. The scrape costs
# nothing measurable when its ratios lie within the A/A control's spread.
# Usage: bench/metrics_scrape.sh BUILD_DIR   (env: SECONDS_PER_RUN=10, RATE=20000, ROUNDS=3; FLAGS="--coalesce
# 100us" adds run flags to every run (a precise run at 20k/s keeps one core nearly busy, so any other work on that
# core shows as lateness; a coalesced one leaves it headroom); PRIORITY=-N runs nginx and the generator at nice -N,
# so a busy machine's builds take the cores' leftovers; says so below).
# Traffic only to 127.0.0.1; every run is bounded.
set -euo pipefail
BUILD=${1:-build/release}
OPENLOOP=$BUILD/src/cli/openloop
SECS=${SECONDS_PER_RUN:-10}
RATE=${RATE:-20000}
ROUNDS=${ROUNDS:-3}
export OPENLOOP_E2E_LIB=$(dirname "$0")/../tests/e2e/lib.sh
source "$OPENLOOP_E2E_LIB" "$OPENLOOP"

port=$(free_port)
start_nginx "$port"
url=http://127.0.0.1:$port/
taskset -pc 0 "$(nginx_worker_pid)" >/dev/null
# This script, and every process it starts (the scraper's sleep and curl; taskset moves the generator), on core 0 too:
# a fork and exec a second on the generator's core would cost it milliseconds that are not the endpoint's.
taskset -pc 0 $$ >/dev/null
GEN=(taskset -c 1)
if [[ -n ${PRIORITY:-} ]]; then
  renice -n "$PRIORITY" -p "$(nginx_worker_pid)" >/dev/null
  GEN=(nice -n "$PRIORITY" taskset -c 1)
  echo "nginx's worker and the generator run at nice $PRIORITY"
fi

[[ -n ${FLAGS:-} ]] && echo "every run with $FLAGS"
variants=(none none2 listen scrape)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "| round | run | verdict | worker CPU µs/request | send lateness p50 / p99 / p99.9 µs | scrapes |"
echo "|---|---|---|---|---|---|"
for round in $(seq "$ROUNDS"); do
  for i in 0 1 2 3; do
    v=${variants[$(((i + round) % 4))]}
    t=$E2E_TMP/$round-$v
    extra=()
    scrapes=0
    if [[ $v == listen || $v == scrape ]]; then
      mport=$(free_port)
      extra=(--metrics-listen "127.0.0.1:$mport")
    fi
    # shellcheck disable=SC2086 # FLAGS is several words on purpose
    "${GEN[@]}" "$OPENLOOP" run "$url" --rate "$RATE/s" --duration "${SECS}s" --warmup 1s --threads 1 -q \
      ${FLAGS:-} "${extra[@]}" --json "$t.json" >/dev/null 2>&1 &
    pid=$!
    if [[ $v == scrape ]]; then
      for _ in $(seq $((SECS + 3))); do
        sleep 1 # the scraper's period, not synchronisation
        kill -0 "$pid" 2>/dev/null || break
        curl -sf --max-time 1 -o /dev/null "http://127.0.0.1:$mport/metrics" && scrapes=$((scrapes + 1)) || true
      done
    fi
    wait "$pid" || true
    jq -r --arg r "$round" --arg v "$v" --arg n "$scrapes" '"| \($r) | \($v) | \(if .verdict.valid then "VALID" else "INVALID: " + (.verdict.reasons | map(tostring) | join("; ")) end) | \(1e6 * .generator.cpu_s / .summary.counts.sent * 100 | round / 100) | \(.summary.send_lateness_ms | [.p50, .p99, .p999] | map(. * 1000 | round) | join(" / ")) | \($n) |"' "$t.json"
  done
done

# Per round, each run's ratio to `none` (neighbouring runs: the fairest comparison on a noisy machine).
echo
echo "| round | run | CPU/request ÷ none | lateness p50 ÷ none | lateness p99 ÷ none | lateness p99.9 ÷ none | round's runs |"
echo "|---|---|---|---|---|---|---|"
ratios=$E2E_TMP/ratios.txt
: >"$ratios"
for round in $(seq "$ROUNDS"); do
  for v in none2 listen scrape; do
    jq -rn --slurpfile a "$E2E_TMP/$round-none.json" --slurpfile b "$E2E_TMP/$round-$v.json" \
      --slurpfile c "$E2E_TMP/$round-none2.json" --slurpfile d "$E2E_TMP/$round-listen.json" \
      --slurpfile e "$E2E_TMP/$round-scrape.json" --arg v "$v" '
      def cpu(r): r.generator.cpu_s / r.summary.counts.sent;
      def ratio(x; y): if y > 0 then x / y else null end;
      [$v, ratio(cpu($b[0]); cpu($a[0])),
       ratio($b[0].summary.send_lateness_ms.p50; $a[0].summary.send_lateness_ms.p50),
       ratio($b[0].summary.send_lateness_ms.p99; $a[0].summary.send_lateness_ms.p99),
       ratio($b[0].summary.send_lateness_ms.p999; $a[0].summary.send_lateness_ms.p999),
       (if ([$a[0], $c[0], $d[0], $e[0]] | all(.verdict.valid)) then "VALID" else "INVALID" end)] | @tsv' |
      tee -a "$ratios" |
      awk -v r="$round" -F'\t' '{ printf "| %s | %s | %.2f | %.2f | %.2f | %.2f | %s |\n", r, $1, $2, $3, $4, $5, $6 }'
  done
done
# summary RUN COLUMN FILTER: "median (min–max)" of a ratio column of RUN over the rounds matching FILTER.
summary() {
  awk -F'\t' -v run="$1" -v want="$3" '$1 == run && $6 ~ want' "$ratios" | cut -f"$2" | sort -g |
    awk '{ v[NR] = $1 } END { if (NR == 0) { print "-"; exit }
      printf "%.2f (%.2f–%.2f)", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, v[1], v[NR] }'
}
valid=$(awk -F'\t' '$1 == "none2" && $6 == "VALID"' "$ratios" | wc -l)
for filter in VALID all; do
  for v in none2 listen scrape; do
    want='^VALID$'
    [[ $filter == all ]] && want=.
    printf "| median (min–max), %s | %s | %s | %s | %s | %s | |\n" \
      "$([[ $filter == all ]] && echo "every round" || echo "$valid VALID rounds")" "$v" "$(summary "$v" 2 "$want")" \
      "$(summary "$v" 3 "$want")" "$(summary "$v" 4 "$want")" "$(summary "$v" 5 "$want")"
  done
done
echo
if ((valid < ROUNDS)); then
  echo "$((ROUNDS - valid)) of $ROUNDS rounds had an INVALID run (reasons above): their ratios compare saturated runs, not the scrape's cost; quote the VALID rounds' lines"
fi
echo "load average (1, 5, 15 min): before $load_before, after $(cut -d' ' -f1-3 /proc/loadavg); $(nproc --all) CPUs"
