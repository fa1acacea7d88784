#!/usr/bin/env bash
# Experiment 1, the stall: a lab with 1 worker, 1 ms service, frozen 500 ms every 2 s; 10 s of closed loop (1 user,
# back to back) and 10 s of open model (one request every 2 ms, latency from the intended time). Prints markdown rows.
# usage: scripts/experiments/1_stall.sh path/to/openloop   (~25 s)   env: RT=1 or NICE=-15 (see lib.sh), DURATION (10s)
source "$(dirname "$0")/lib.sh"
DURATION=${DURATION:-10s}

echo "machine: $(machine_load)"
start_lab --workers 1 --service 1ms --stall 500ms/2s
echo "lab: $LAB_URL --workers 1 --service 1ms --stall 500ms/2s"
echo "closed: openloop run URL --vus 1 --duration $DURATION (lab at t=$(lab_seconds_now) s)"
run_ol closed --vus 1 --duration "$DURATION"
echo "open:   openloop run URL --rate 500/s --threads 1 --duration $DURATION (lab at t=$(lab_seconds_now) s)"
run_ol open --rate 500/s --threads 1 --duration "$DURATION"

echo
echo "| load generator | requests | p50 | p90 | p99 | p99.9 | max | send lateness p99 | verdict |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---|"
for name in closed open; do
  f=$EXP_DIR/$name.json
  label=$([[ $name == closed ]] && echo "closed loop, 1 user back to back" || echo "open model, 500/s (every 2 ms)")
  read -r n p50 p90 p99 p999 max late < <(jq -r '[.summary.counts.completed, (.summary.response_time_ms | .p50, .p90,
    .p99, .p999, .max), .summary.send_lateness_ms.p99] | @tsv' "$f")
  [[ $name == closed ]] && lateness="n/a" || lateness="$(ms "$late") ms"
  echo "| $label | $n | $(ms "$p50") ms | $(ms "$p90") ms | $(ms "$p99") ms | $(ms "$p999") ms | $(ms "$max") ms |" \
    "$lateness | $(verdict "$f") |"
done
