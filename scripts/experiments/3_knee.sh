#!/usr/bin/env bash
# Experiment 3, the knee: K workers with exponential service S (capacity K/S), Poisson arrivals stepped from 20 % to
# 150 % of capacity, one separate run per step against a fresh lab (so no step inherits the previous one's queue), with
# a client deadline. Per step: offered, client-side throughput and goodput, the work the lab did (its own completions,
# including responses nobody waited for), p50/p99 and timeouts. Prints markdown rows.
# usage: scripts/experiments/3_knee.sh path/to/openloop   (~5 min with the defaults)
# env: RT=1 or NICE=-15 (see lib.sh), WORKERS (4), S_MS (5), STEPS ("20 40 60 70 80 90 100 110 120 130 150" % of capacity),
#      WARMUP (5), DURATION (20 seconds), TIMEOUT (2s)
source "$(dirname "$0")/lib.sh"
WORKERS=${WORKERS:-4}
S_MS=${S_MS:-5}
read -r -a STEPS <<<"${STEPS:-20 40 60 70 80 90 100 110 120 130 150}"
WARMUP=${WARMUP:-5}
DURATION=${DURATION:-20}
TIMEOUT=${TIMEOUT:-2s}
CAPACITY=$(awk -v k="$WORKERS" -v s="$S_MS" 'BEGIN { printf "%.6g", k * 1000 / s }')

echo "machine: $(machine_load)"
echo "lab: --workers $WORKERS --service exp:${S_MS}ms (capacity $CAPACITY/s), restarted for every step"
echo "run: openloop run URL --rate R --arrival poisson --seed 5 --threads 1 --timeout $TIMEOUT --warmup ${WARMUP}s -d ${DURATION}s"
rows=()
for pct in "${STEPS[@]}"; do
  rate=$(awk -v c="$CAPACITY" -v p="$pct" 'BEGIN { printf "%.6g", c * p / 100 }')
  start_lab --workers "$WORKERS" --service "exp:${S_MS}ms"
  t0=$(lab_seconds_now)
  run_ol "step$pct" --rate "$rate/s" --arrival poisson --seed 5 --threads 1 --timeout "$TIMEOUT" \
    --warmup "${WARMUP}s" --duration "${DURATION}s"
  # The lab's own completions per second over the measured period (its history counts whole seconds since start).
  work=$(lab_stats | jq --argjson a "$t0" --argjson w "$WARMUP" --argjson d "$DURATION" \
    '[.history[] | select(.second >= ($a + $w | ceil) and .second + 1 <= ($a + $w + $d | floor)) | .completed]
     | add / length')
  f=$EXP_DIR/step$pct.json
  rows+=("$(jq -r --arg pct "$pct" --argjson work "$work" --arg v "$(verdict "$f")" \
    --argjson to "$(jq '.plan.timeout_s * 1000' "$f")" '
    def r: . * 10 | round / 10;
    def lat: if . >= $to then "≥ \($to / 1000) s (timeout)" else "\(if . < 10 then . * 100 | round / 100 elif . < 100 then r else round end) ms" end;
    .summary as $s | $s.counts as $c
    | "| \($pct) % | \($s.offered_rps | round)/s | \($s.throughput_rps | round)/s | **\($s.goodput_rps | round)/s** |" +
      " \($work | round)/s | \($s.response_time_ms.p50 | lat) | \($s.response_time_ms.p99 | lat) |" +
      " \(100 * $c.timeouts / $c.intended | r) % | \($v) |"' "$f")")
  echo "step $pct %: ${rows[-1]}" >&2
done
stop_lab
echo
echo "| offered (% of capacity) | offered | throughput (client) | goodput | work done by the lab | p50 | p99 | timeouts | verdict |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---|"
printf '%s\n' "${rows[@]}"
