# lib.sh: helpers for the experiment scripts in this folder. Source it with the openloop binary as $1.
# Every lab it starts is stopped on exit, every run is bounded by `timeout`, traffic goes only to 127.0.0.1.
# Results (JSON) stay in $EXP_DIR, printed at the end, so the tables can be checked against the raw data.
# shellcheck shell=bash
set -euo pipefail

OPENLOOP=${1:-build/release/src/cli/openloop}
[[ -x $OPENLOOP ]] || { echo "usage: $0 path/to/openloop (built Release)" >&2; exit 2; }
for tool in jq awk curl; do command -v "$tool" >/dev/null || { echo "$0: $tool is not installed" >&2; exit 2; }; done
# On a box shared with other work (compile jobs), the generator's send lateness (its own error) is the scheduler's
# wake-up delay. RT=1 runs lab and generator under SCHED_FIFO (chrt -f 10), NICE=-15 at a higher nice priority (both
# need root); they use a few % of one core, so this costs the other work little and keeps the verdict VALID.
RT=${RT:-0}
# The lab's binary: the same openloop unless LAB_OPENLOOP names another build (to measure one lab against another).
LAB_OPENLOOP=${LAB_OPENLOOP:-$OPENLOOP}
NICE=${NICE:-0}
EXP_DIR=$(mktemp -d "/tmp/openloop-$(basename "$0" .sh).XXXXXX")
LAB_PID=
LAB_URL=
trap 'stop_lab; echo "(results JSON kept in $EXP_DIR)" >&2' EXIT

# The priority prefix of every lab and run (chrt and nice exec the command, so a background job's $! is its pid).
PRIO=()
if [[ $RT != 0 ]]; then
  PRIO=(chrt -f 10)
elif [[ $NICE != 0 ]]; then
  PRIO=(nice -n "$NICE")
fi

# start_lab ARGS...: a fresh lab on a free loopback port; sets LAB_URL and LAB_T0 (epoch ns when it started).
start_lab() {
  stop_lab
  : >"$EXP_DIR/lab.out"  # now, not in the child after the fork: a stale "listening" line would name the last lab
  "${PRIO[@]}" "$LAB_OPENLOOP" lab --listen 127.0.0.1:0 "$@" >"$EXP_DIR/lab.out" 2>&1 &
  LAB_PID=$!
  LAB_T0=$(date +%s%N)
  local port=
  for _ in $(seq 100); do
    port=$(sed -n 's/^lab listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$EXP_DIR/lab.out" 2>/dev/null || true)
    [[ -n $port ]] && break
    sleep 0.05
  done
  [[ -n $port ]] || { echo "the lab did not start: $(cat "$EXP_DIR/lab.out")" >&2; exit 4; }
  LAB_URL=http://127.0.0.1:$port
}

stop_lab() {
  [[ -n $LAB_PID ]] || return 0
  kill -TERM "$LAB_PID" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$LAB_PID" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$LAB_PID" 2>/dev/null || true
  wait "$LAB_PID" 2>/dev/null || true
  LAB_PID=
}

# lab_stats: GET /_lab/stats as JSON.
lab_stats() { curl -sS --max-time 5 "$LAB_URL/_lab/stats"; }

# lab_seconds_now: seconds since the lab started (its per-second history counts from there).
lab_seconds_now() { lab_stats | jq '.uptime_s'; }

# run_ol NAME ARGS...: `openloop run LAB_URL/ ARGS` writing $EXP_DIR/NAME.json; exit 3 (INVALID) is kept and
# reported by the tables, anything else stops the experiment. Bounded: 10 minutes at most.
run_ol() {
  local name=$1 rc=0
  shift
  "${PRIO[@]}" timeout --signal=INT --kill-after=10 600 "$OPENLOOP" run "$LAB_URL/" "$@" --json "$EXP_DIR/$name.json" \
    --quiet >"$EXP_DIR/$name.txt" 2>&1 || rc=$?
  if [[ $rc != 0 && $rc != 3 ]]; then
    echo "openloop run $name failed (exit $rc):" >&2
    cat "$EXP_DIR/$name.txt" >&2
    exit 4
  fi
}

# verdict FILE: VALID, or INVALID with the reasons shortened.
verdict() {
  jq -r 'if .verdict.valid then "VALID" else "INVALID (" + ([.verdict.reasons[] | split(":")[0]] | join("; ")) + ")" end' "$1"
}

# ms VALUE: a latency in ms with 3 significant digits (1.07, 12.3, 492, 5,012).
ms() {
  awk -v v="$1" 'BEGIN {
    if (v < 10) s = sprintf("%.2f", v); else if (v < 100) s = sprintf("%.1f", v); else s = sprintf("%.0f", v);
    if (v >= 1000) { n = s; s = ""; while (length(n) > 3) { s = "," substr(n, length(n) - 2) s; n = substr(n, 1, length(n) - 3) } s = n s }
    print s }'
}

# machine_load: the 1-minute load average and the core count, for the record next to each experiment.
machine_load() {
  echo "load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores;" \
    "priority: $([[ $RT != 0 ]] && echo "SCHED_FIFO 10" || echo "nice $NICE")"
}
