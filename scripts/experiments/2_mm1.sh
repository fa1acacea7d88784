#!/usr/bin/env bash
# Experiment 2, M/M/1: one worker with exponential service (mean S), Poisson arrivals at utilisation ρ; the measured mean
# response time next to S/(1−ρ). The rig adds a constant c to every response (loopback, parsing, the lab's timer
# wake-up, the generator's wake-up), and c depends a little on the rate (busier loops wake sooner), so before each
# M/M/1 run the same arrivals go to the same lab with 10000 workers (M/M/∞: no queueing, mean response S + c), and
# the table compares (measured − c) with S/(1−ρ). The lab is reconfigured through POST /_lab/config in between.
# Uncertainty: batch means over BATCH-second batches (≫ the relaxation time S/(1−√ρ)², 1.6 s at ρ = 0.95, S = 1 ms),
# and Blomqvist's asymptotic variance of the M/M/1 mean wait, ρ(2+5ρ−4ρ²+ρ³)/(1−ρ)⁴ · S²/n, as a cross-check.
# usage: scripts/experiments/2_mm1.sh path/to/openloop   (~12 min with the defaults)
# env: RT=1 or NICE=-15 (see lib.sh), S_MS (1), RHOS ("0.5 0.8 0.9 0.95"), DURATIONS ("60 60 120 300" seconds),
#      WARMUP (10), BATCH (10), CAL_SECONDS (20)
source "$(dirname "$0")/lib.sh"
S_MS=${S_MS:-1}
read -r -a RHOS <<<"${RHOS:-0.5 0.8 0.9 0.95}"
read -r -a DURATIONS <<<"${DURATIONS:-60 60 120 300}"
CAL_SECONDS=${CAL_SECONDS:-20}
WARMUP=${WARMUP:-10}
BATCH=${BATCH:-10}

echo "machine: $(machine_load)"
start_lab --workers 1 --service "exp:${S_MS}ms" --seed 7
echo "lab: --workers 1 --service exp:${S_MS}ms --seed 7"

# mm1 NAME RHO SECONDS [WARMUP]: one Poisson run at rate ρ/S, 1 thread, seed 11.
mm1() {
  local rate
  rate=$(awk -v r="$2" -v s="$S_MS" 'BEGIN { printf "%.6g", r * 1000 / s }')
  echo "run $1: openloop run URL --rate $rate/s --arrival poisson --seed 11 --threads 1 --warmup ${4:-$WARMUP}s -d ${3}s" >&2
  run_ol "$1" --rate "$rate/s" --arrival poisson --seed 11 --threads 1 --warmup "${4:-$WARMUP}s" --duration "${3}s"
  sleep 1  # the lab's queue is empty again before the next run
}

# workers K: reconfigure the running lab.
workers() { curl -sS --max-time 5 -X POST -d "{\"workers\": $1}" "$LAB_URL/_lab/config" >/dev/null; }

# stats FILE: mean, batch-means standard error, batch count, requests (per-interval means weighted by counts).
stats() {
  jq -r --argjson b "$BATCH" '[.intervals[] | {n: .response_time_ms.count, m: .response_time_ms.mean}] as $iv
    | ([range(0; $iv | length; $b) as $i | $iv[$i:$i + $b] | select(length == $b)
        | (map(.n * .m) | add) / (map(.n) | add)]) as $bm
    | ($bm | add / length) as $mean | ($bm | length) as $k
    | ([$bm[] | (. - $mean) * (. - $mean)] | add / ($k - 1) | sqrt / ($k | sqrt)) as $se
    | [.summary.response_time_ms.mean, $se, $k, .summary.counts.completed, .summary.offered_rps] | @tsv' "$1"
}

rows=()
for i in "${!RHOS[@]}"; do
  rho=${RHOS[$i]}
  d=${DURATIONS[$i]:-${DURATIONS[-1]}}
  workers 10000
  mm1 "inf$rho" "$rho" "$CAL_SECONDS" 2
  workers 1
  mm1 "rho$rho" "$rho" "$d"
  read -r cal _ _ _ _ < <(stats "$EXP_DIR/inf$rho.json")
  read -r mean se k n lambda < <(stats "$EXP_DIR/rho$rho.json")
  rows+=("$(awk -v r="$rho" -v s="$S_MS" -v cal="$cal" -v m="$mean" -v se="$se" -v k="$k" -v n="$n" -v d="$d" -v l="$lambda" \
    -v v="$(verdict "$EXP_DIR/rho$rho.json")" -v vc="$(verdict "$EXP_DIR/inf$rho.json")" 'BEGIN {
      w = s / (1 - r); c = cal - s; sig = sqrt(r * (2 + 5*r - 4*r*r + r*r*r) / (1 - r)^4) * s / sqrt(n)
      rr = l * s / 1000; wr = s / (1 - rr)
      printf "| %.2f | %.4g/s | %d s | %d | %.2f ms | %.4f: %.2f ms | %.3f ms | %.2f ms | **%.2f ms** | ± %.2f ms (%d batches) | ± %.2f ms | %+.1f%% / %+.1f%% | %s |",
        r, r * 1000 / s, d, n, w, rr, wr, c, m, m - c, se, k, sig, 100 * (m - c - w) / w, 100 * (m - c - wr) / wr,
        (v == vc ? v : v " / calibration " vc) }')")
  echo "${rows[-1]}" >&2
done
echo
echo "| ρ | rate | measured for | requests | S/(1−ρ) | ρ̂ = arrival rate of the run × S: S/(1−ρ̂) | c (M/M/∞ run) | measured mean | measured − c | batch-means s.e. | Blomqvist s.e. | vs S/(1−ρ) / vs S/(1−ρ̂) | verdict |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
printf '%s\n' "${rows[@]}"
