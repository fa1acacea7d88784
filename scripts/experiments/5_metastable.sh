#!/usr/bin/env bash
# Experiment 5, a metastable failure at the seed's scale, reproduced and fixed, one `openloop probe metastable` per
# configuration: WORKERS workers with a constant SERVICE (capacity WORKERS / SERVICE: 4 × 10 ms = 400/s), base load
# BASE_RATE (300/s), a load spike to SPIKE (600/s) for TRIGGER_FOR, recovery window WINDOW, and DESCEND descending
# steps of 10 % if it does not recover at the base load. The client waits 10 s per request and 1 s per attempt.
# Configurations (CONFIGS):
#   fifo-retry  unbounded FIFO queue; 3 attempts on timeout, 5xx and refused connections, no retry budget (the seed's
#               failure: "a 3-attempt client retry policy with no budget" over "an unbounded queue")
#   fixed       LIFO queue bounded at 2 × SHED, shedding (429) at SHED waiting, deadlines from X-Deadline; the same
#               3 attempts, also on 429, within a retry budget (RETRY_BUDGET) and with --send-deadline X-Deadline
#   fifo        unbounded FIFO queue, no retries: the control (a slow recovery, not a metastable failure)
# While each probe runs, the lab's open descriptors, its queue and connections, and the TCP states of the loopback
# connections to its port are sampled every 5 s: descriptors and ports are what ran out the first time this was run at
# this scale (docs/probe.md).
# usage: scripts/experiments/5_metastable.sh path/to/openloop   (~5 min per configuration that does not recover, ~3
#        per one that does)
# env: RT=1 or NICE=-15 (see lib.sh); LAB_OPENLOOP (the lab's binary, default the same openloop); WORKERS (4),
#      SERVICE (10ms), BASE_RATE (300), SPIKE (600), WARMUP (10s), BASELINE_FOR (30s), TRIGGER_FOR (30s),
#      OBSERVE_FOR (90s), WINDOW (30s), DESCEND (2), DESCEND_FOR (60s), THREADS (2), SHED (400),
#      RETRY_BUDGET (ratio:10%), CONFIGS ("fifo-retry fixed")
source "$(dirname "$0")/lib.sh"
WORKERS=${WORKERS:-4}
SERVICE=${SERVICE:-10ms}
BASE_RATE=${BASE_RATE:-300}
SPIKE=${SPIKE:-600}
WARMUP=${WARMUP:-10s}
BASELINE_FOR=${BASELINE_FOR:-30s}
TRIGGER_FOR=${TRIGGER_FOR:-30s}
OBSERVE_FOR=${OBSERVE_FOR:-90s}
WINDOW=${WINDOW:-30s}
DESCEND=${DESCEND:-2}
DESCEND_FOR=${DESCEND_FOR:-60s}
THREADS=${THREADS:-2}
SHED=${SHED:-400}
RETRY_BUDGET=${RETRY_BUDGET:-ratio:10%}
read -r -a CONFIGS <<<"${CONFIGS:-fifo-retry fixed}"
PROBE_ARGS=(--base "$BASE_RATE/s" --trigger "load:$SPIKE/s" --trigger-for "$TRIGGER_FOR" --warmup "$WARMUP"
  --baseline-for "$BASELINE_FOR" --observe-for "$OBSERVE_FOR" --window "$WINDOW" --descend "$DESCEND"
  --descend-step 10% --descend-for "$DESCEND_FOR" --timeout 10s --threads "$THREADS")
RETRY_ARGS=(--per-try-timeout 1s --retry-attempts 3)

# sample_resources PID: every 5 s while PID lives (at most 20 min): seconds since the probe started, the lab's open
# descriptors, queue depth and open connections, and the TCP states of the connections to and from the lab's port.
sample_resources() {
  local pid=$1 port=${LAB_URL##*:} t0 i stats
  t0=$(date +%s)
  echo "t_s lab_fds lab_queue lab_connections estab time_wait fin_wait2 close_wait other"
  for ((i = 0; i < 240; i++)); do
    kill -0 "$pid" 2>/dev/null || return 0
    stats=$(lab_stats 2>/dev/null || echo '{}')
    printf '%s %s %s %s %s\n' "$(($(date +%s) - t0))" "$(find "/proc/$LAB_PID/fd" -mindepth 1 2>/dev/null | wc -l)" \
      "$(jq -r '.queue_depth // "-"' <<<"$stats")" "$(jq -r '.server.connections_open // "-"' <<<"$stats")" \
      "$(ss -Htan "( sport = :$port or dport = :$port )" | awk '
        { n[$1]++ }
        END { o = 0; for (s in n) if (s != "ESTAB" && s != "TIME-WAIT" && s != "FIN-WAIT-2" && s != "CLOSE-WAIT") o += n[s]
              printf "%d %d %d %d %d", n["ESTAB"], n["TIME-WAIT"], n["FIN-WAIT-2"], n["CLOSE-WAIT"], o }')"
    sleep 5
  done
}

echo "machine: $(machine_load)"
echo "lab: $WORKERS workers x $SERVICE (capacity $(awk -v k="$WORKERS" -v s="${SERVICE%ms}" 'BEGIN { print k * 1000 / s }')/s);" \
  "probe: ${PROBE_ARGS[*]}"
for config in "${CONFIGS[@]}"; do
  lab_args=(--workers "$WORKERS" --service "$SERVICE")
  run_args=()
  case $config in
    fifo-retry) run_args+=("${RETRY_ARGS[@]}" --retry-on "timeout,5xx,connect") ;;
    fixed)
      lab_args+=(--queue lifo --queue-limit $((2 * SHED)) --shed-at "$SHED" --deadline-header X-Deadline)
      run_args+=("${RETRY_ARGS[@]}" --retry-on "timeout,5xx,429,connect" --retry-budget "$RETRY_BUDGET"
        --send-deadline X-Deadline) ;;
    fifo) ;;
    *) echo "unknown configuration $config" >&2; exit 2 ;;
  esac
  start_lab "${lab_args[@]}"
  echo
  echo "== $config: openloop lab ${lab_args[*]}  ($(machine_load); lab open-file limit" \
    "$(awk '/Max open files/ {print $4}' "/proc/$LAB_PID/limits"))"
  echo "   openloop probe metastable URL ${PROBE_ARGS[*]} ${run_args[*]} --lab-control URL/_lab/config"
  rc=0
  "${PRIO[@]}" timeout --signal=INT --kill-after=10 1200 "$OPENLOOP" probe metastable "$LAB_URL/" "${PROBE_ARGS[@]}" \
    "${run_args[@]}" --lab-control "$LAB_URL/_lab/config" --json "$EXP_DIR/$config.json" \
    --html "$EXP_DIR/$config.html" >"$EXP_DIR/$config.txt" 2>"$EXP_DIR/$config.err" &
  probe_pid=$!
  sample_resources "$probe_pid" >"$EXP_DIR/$config.resources"
  wait "$probe_pid" || rc=$?
  cat "$EXP_DIR/$config.txt"
  echo "exit $rc; lab at the end: $(lab_stats | jq -c '{arrivals, ok, shed, rejected, expired, queue_depth,
    connections_accepted: .server.connections_accepted, accept_errors: .server.accept_errors}')"
  echo "resources every 15 s (the lab's descriptors, queue, connections; TCP states on its port):"
  awk 'NR == 1 || (NR - 2) % 3 == 0' "$EXP_DIR/$config.resources" | column -t
  awk 'NR > 1 { for (i = 2; i <= 9; i++) if ($i + 0 > m[i]) m[i] = $i + 0 }
       END { printf "maxima: lab fds %d, lab queue %d, lab connections %d, ESTAB %d, TIME-WAIT %d, FIN-WAIT-2 %d, CLOSE-WAIT %d\n",
             m[2], m[3], m[4], m[5], m[6], m[7], m[8] }' "$EXP_DIR/$config.resources"
done
stop_lab
