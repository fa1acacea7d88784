#!/usr/bin/env bash
# Experiment 2, M/M/1: one worker with exponential service (mean S), Poisson arrivals at utilisation ρ; the measured mean
# response time next to S/(1−ρ). A calibration run at ρ = 0.1 measures the constant the rig adds to every response
# (loopback, parsing, the lab's timer wake-up); the table shows theory, theory + that constant, and the measurement.
# Uncertainty: batch means over BATCH-second batches (≫ the relaxation time S/(1−√ρ)²), and Blomqvist's asymptotic
# variance of the M/M/1 mean wait, ρ(2+5ρ−4ρ²+ρ³)/(1−ρ)⁴ · S²/n, as a cross-check.
# usage: scripts/experiments/2_mm1.sh path/to/openloop   (~10 min with the defaults)
# env: RT=1 or NICE=-10 (see lib.sh), S_MS (1), RHOS ("0.5 0.8 0.9 0.95"), DURATIONS ("30 60 120 300" seconds), WARMUP (10), BATCH (10), CAL_SECONDS (60)
source "$(dirname "$0")/lib.sh"
S_MS=${S_MS:-1}
read -r -a RHOS <<<"${RHOS:-0.5 0.8 0.9 0.95}"
read -r -a DURATIONS <<<"${DURATIONS:-30 60 120 300}"
WARMUP=${WARMUP:-10}
BATCH=${BATCH:-10}

echo "machine: $(machine_load)"
start_lab --workers 1 --service "exp:${S_MS}ms" --seed 7
echo "lab: --workers 1 --service exp:${S_MS}ms --seed 7"

# mm1 NAME RHO SECONDS: one Poisson run at rate ρ/S, 1 thread, seed 11.
mm1() {
  local rate
  rate=$(awk -v r="$2" -v s="$S_MS" 'BEGIN { printf "%.6g", r * 1000 / s }')
  echo "run $1: openloop run URL --rate $rate/s --arrival poisson --seed 11 --threads 1 --warmup ${WARMUP}s -d ${3}s" >&2
  run_ol "$1" --rate "$rate/s" --arrival poisson --seed 11 --threads 1 --warmup "${WARMUP}s" --duration "${3}s"
  # Stop-and-go between runs: let the lab's queue empty before the next one starts.
  sleep 1
}

# stats FILE: mean, batch-means standard error, batch count, requests (per-interval means weighted by counts).
stats() {
  jq -r --argjson b "$BATCH" '[.intervals[] | {n: .response_time_ms.count, m: .response_time_ms.mean}] as $iv
    | ([range(0; $iv | length; $b) as $i | $iv[$i:$i + $b] | select(length == $b)
        | (map(.n * .m) | add) / (map(.n) | add)]) as $bm
    | ($bm | add / length) as $mean | ($bm | length) as $k
    | ([$bm[] | (. - $mean) * (. - $mean)] | add / ($k - 1) | sqrt / ($k | sqrt)) as $se
    | [.summary.response_time_ms.mean, $se, $k, .summary.counts.completed] | @tsv' "$1"
}

mm1 calibration 0.1 "${CAL_SECONDS:-60}"
read -r cal_mean _ _ _ < <(stats "$EXP_DIR/calibration.json")
c=$(awk -v m="$cal_mean" -v s="$S_MS" 'BEGIN { printf "%.4f", m - s / 0.9 }')
echo "calibration at ρ = 0.1: mean $(ms "$cal_mean") ms, theory $(awk -v s="$S_MS" 'BEGIN { printf "%.3f", s / 0.9 }') ms:" \
  "the rig adds c = $c ms to every response ($(verdict "$EXP_DIR/calibration.json"))" >&2

rows=()
for i in "${!RHOS[@]}"; do
  rho=${RHOS[$i]}
  mm1 "rho$rho" "$rho" "${DURATIONS[$i]:-${DURATIONS[-1]}}"
  read -r mean se k n < <(stats "$EXP_DIR/rho$rho.json")
  rows+=("$(awk -v r="$rho" -v s="$S_MS" -v c="$c" -v m="$mean" -v se="$se" -v k="$k" -v n="$n" \
    -v d="${DURATIONS[$i]:-${DURATIONS[-1]}}" -v v="$(verdict "$EXP_DIR/rho$rho.json")" 'BEGIN {
      w = s / (1 - r); sig = sqrt(r * (2 + 5*r - 4*r*r + r*r*r) / (1 - r)^4) * s / sqrt(n)
      printf "| %.2f | %.4g/s | %d s | %d | %.2f ms | %.2f ms | **%.2f ms** | ± %.2f ms (%d batches) | ± %.2f ms | %+.1f%% | %s |",
        r, r * 1000 / s, d, n, w, w + c, m, se, k, sig, 100 * (m - c - w) / w, v }')")
done
echo
echo "| ρ | rate | measured for | requests | S/(1−ρ) | S/(1−ρ) + c | measured mean | batch-means s.e. | Blomqvist s.e. | (measured − c) vs theory | verdict |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
printf '%s\n' "${rows[@]}"
