#!/usr/bin/env bash
# Experiment 4, overload and recovery: K workers with exponential service S (capacity K/S); Poisson arrivals at 50 %
# of capacity for BASE s, 150 % for PUSH s, then 50 % again for AFTER s (step stages), a client deadline TIMEOUT.
# Lab configurations (CONFIGS): an unbounded FIFO queue that serves everything (the default), with deadlines, a bounded
# LIFO queue with shedding, with deadlines, and the same with client retries (they need an openloop with
# --retry-attempts). Deadlines: with --send-deadline (openloop after 3d566dd) every attempt carries the client's
# remaining budget in X-Deadline; without it the deadline is approximated by a constant header, X-Deadline: BUDGET:
# the lab's deadline is then (arrival at the lab + BUDGET), and since requests leave the generator on time (send
# lateness is reported) that is the client's own deadline less the margin TIMEOUT − BUDGET left for the service.
# Prints, per configuration, totals, the time until goodput is back (from the step down, the first second after which
# every second's goodput is ≥ 95 % of its offered load) and the per-second series (goodput/offered, p50, queue depth).
# usage: scripts/experiments/4_overload.sh path/to/openloop   (~4 min; ~2 min per configuration)
# env: RT=1 or NICE=-15 (see lib.sh), WORKERS (4), S_MS (5), BASE (10), PUSH (30), AFTER (60), TIMEOUT (2s),
#      BUDGET (1900ms, only without --send-deadline), LIMIT (1600), SHED (400), PER_TRY (600ms, with retries),
#      RETRY_BUDGET (ratio:10%), CONFIGS ("fifo lifo-shed-deadline"; also fifo-deadline, lifo-shed, fifo-retry,
#      fifo-retry-budget, lifo-shed-deadline-retry)
source "$(dirname "$0")/lib.sh"
WORKERS=${WORKERS:-4}
S_MS=${S_MS:-5}
BASE=${BASE:-10}
PUSH=${PUSH:-30}
AFTER=${AFTER:-60}
TIMEOUT=${TIMEOUT:-2s}
BUDGET=${BUDGET:-1900ms}
LIMIT=${LIMIT:-1600}
SHED=${SHED:-400}
PER_TRY=${PER_TRY:-600ms}
RETRY_BUDGET=${RETRY_BUDGET:-ratio:10%}
if [[ $("$OPENLOOP" run --help) == *--send-deadline* ]]; then
  DEADLINE_ARGS=(--send-deadline X-Deadline)
else
  DEADLINE_ARGS=(-H "X-Deadline: $BUDGET")
fi
RETRY_ARGS=(--per-try-timeout "$PER_TRY" --retry-attempts 3 --retry-on timeout,5xx,429)
read -r -a CONFIGS <<<"${CONFIGS:-fifo lifo-shed-deadline}"
CAPACITY=$(awk -v k="$WORKERS" -v s="$S_MS" 'BEGIN { printf "%.6g", k * 1000 / s }')
LOW=$(awk -v c="$CAPACITY" 'BEGIN { printf "%.6g", c / 2 }')
HIGH=$(awk -v c="$CAPACITY" 'BEGIN { printf "%.6g", c * 1.5 }')
STAGES="0s:$LOW/s,${BASE}s:$LOW/s,0s:$HIGH/s,${PUSH}s:$HIGH/s,0s:$LOW/s,${AFTER}s:$LOW/s"
DROP=$((BASE + PUSH))

echo "machine: $(machine_load)"
echo "capacity $CAPACITY/s ($WORKERS workers, exp:${S_MS}ms); stages $STAGES; client timeout $TIMEOUT"
for config in "${CONFIGS[@]}"; do
  lab_args=(--workers "$WORKERS" --service "exp:${S_MS}ms")
  run_args=()
  case $config in
    fifo) ;;
    fifo-deadline) lab_args+=(--deadline-header X-Deadline) run_args+=("${DEADLINE_ARGS[@]}") ;;
    lifo-shed) lab_args+=(--queue lifo --queue-limit "$LIMIT" --shed-at "$SHED") ;;
    lifo-shed-deadline)
      lab_args+=(--queue lifo --queue-limit "$LIMIT" --shed-at "$SHED" --deadline-header X-Deadline)
      run_args+=("${DEADLINE_ARGS[@]}") ;;
    fifo-retry) run_args+=("${RETRY_ARGS[@]}") ;;
    fifo-retry-budget) run_args+=("${RETRY_ARGS[@]}" --retry-budget "$RETRY_BUDGET") ;;
    lifo-shed-deadline-retry)
      lab_args+=(--queue lifo --queue-limit "$LIMIT" --shed-at "$SHED" --deadline-header X-Deadline)
      run_args+=("${DEADLINE_ARGS[@]}" "${RETRY_ARGS[@]}" --retry-budget "$RETRY_BUDGET") ;;
    *) echo "unknown configuration $config" >&2; exit 2 ;;
  esac
  start_lab "${lab_args[@]}"
  echo
  echo "### $config"
  echo "lab: openloop lab ${lab_args[*]}"
  echo "run: openloop run URL --stages $STAGES --arrival poisson --seed 3 --threads 1 --timeout $TIMEOUT ${run_args[*]@Q}"
  t0=$(lab_seconds_now)
  # The lab keeps 60 s of per-second history: snapshot it every 20 s while the run goes.
  (for i in $(seq $(((BASE + PUSH + AFTER) / 20 + 1))); do sleep 20; lab_stats >"$EXP_DIR/$config.lab$i.json" || true; done) &
  poller=$!
  run_ol "$config" --stages "$STAGES" --arrival poisson --seed 3 --threads 1 --timeout "$TIMEOUT" "${run_args[@]}"
  kill "$poller" 2>/dev/null || true
  wait "$poller" 2>/dev/null || true
  lab_stats >"$EXP_DIR/$config.lab_end.json"
  # Per-second lab history in run time (later snapshots win: an earlier one's last second was still partial).
  jq -s --argjson t0 "$t0" 'map(.history[]) | group_by(.second) | map(last | .t = (.second - ($t0 | floor)))' \
    "$EXP_DIR/$config".lab*.json >"$EXP_DIR/$config.lab_history.json"
  f=$EXP_DIR/$config.json
  echo "verdict: $(verdict "$f"); lab totals: $(jq -c '{ok, shed, rejected, expired, completed}' "$EXP_DIR/$config.lab_end.json")"
  jq -r --argjson drop "$DROP" --argjson base "$BASE" '
    def pct: . * 1000 | round / 10;
    [.intervals[] | {t: (.start_s | floor), off: .counts.intended, ok: .counts.ok}] as $iv
    | ($iv | map(select(.t >= $drop))) as $after
    | ([range(0; $after | length) as $i | select($after[$i:] | all(.ok >= 0.95 * .off)) | $after[$i].t] | first) as $back
    | def phase(a; b): $iv | map(select(.t >= a and .t < b)) | {off: (map(.off) | add), ok: (map(.ok) | add)};
      "goodput/offered: before \(phase(0; $base) | .ok / .off | pct) %, overload \(phase($base; $drop) | .ok / .off | pct) %, after the step down \(phase($drop; 1e9) | .ok / .off | pct) %",
      "goodput back (every later second ≥ 95 % of offered): " +
        (if $back == null then "not within the run" else "\($back - $drop) s after the step down (second \($back))" end),
      "statuses: \(.summary.counts.status_classes | tostring), timeouts \(.summary.counts.timeouts), errors \(.summary.counts.errors), dropped \(.summary.counts.dropped)"' "$f"
  echo "per second, goodput as % of offered (10 a line; the step up is at ${BASE}s, the step down at ${DROP}s):"
  jq -r '[.intervals[] | if .counts.intended > 0 then (100 * .counts.ok / .counts.intended | round) else "-" end]
    | [range(0; length; 10) as $i | "  \($i | tostring | (" " * (3 - length)) + .)s: " + (.[$i:$i + 10] | map(tostring | (" " * (3 - length)) + .) | join(" "))] | .[]' "$f"
  if [[ $config == *retry* ]]; then
    jq -r '"retries: attempts \(.summary.counts.attempts), retries \(.summary.counts.retries), budget denied \(.summary.counts.retry_budget_denied), amplification \(.summary.amplification * 100 | round / 100)"' "$f"
    echo "per second, attempts per request sent (the load the lab saw per request):"
    jq -r '[.intervals[] | if .counts.sent > 0 then (.counts.attempts / .counts.sent * 10 | round / 10) else "-" end]
      | [range(0; length; 10) as $i | "  \($i | tostring | (" " * (3 - length)) + .)s: " + (.[$i:$i + 10] | map(tostring | (" " * (3 - length)) + .) | join(" "))] | .[]' "$f"
  fi
  echo "per second, response time p50 in ms (censored at the timeout):"
  jq -r '[.intervals[] | .response_time_ms.p50 // 0 | round]
    | [range(0; length; 10) as $i | "  \($i | tostring | (" " * (3 - length)) + .)s: " + (.[$i:$i + 10] | map(tostring | (" " * (4 - length)) + .) | join(" "))] | .[]' "$f"
  echo "lab queue depth (deepest in each second, every 5th second from 0):"
  jq -r '[.[] | select(.t >= 0 and .t % 5 == 0) | "\(.t)s:\(.max_queue_depth)"] | join(" ")' "$EXP_DIR/$config.lab_history.json" | fold -s -w 110
done
