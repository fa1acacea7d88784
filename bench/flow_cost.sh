#!/usr/bin/env bash
# flow_cost.sh: what a flow costs the generator per request (issue 30's bench). Side by side, ROUNDS times, at the
# same session rate against the lab on loopback (8 workers, no service time):
#   flow:   a 3-step session, POST /_lab/login → GET /a → GET /b, the first capturing the token with a JSON path
#           ({as: token, json: $.token}), the second sending it (Authorization: Bearer {{token}}) and checking its
#           status ({status: 200});
#   static: the same three requests, the same header written as a constant, no capture and no check.
# Both with `cookies: off` (the jar is the same cost for both; this measures the captures and checks). CPU of the
# whole openloop process (every thread: workers, coordinator, start and end) from `perf stat -e task-clock`
# (utime+stime from /usr/bin/time where perf is not allowed), divided by the requests completed, and the worker
# threads' alone (the results' generator.cpu_s: the run without its start-up). Prints one line per round and the
# ratios flow/static (issue 30's goal: <= 1.3). Traffic only to 127.0.0.1; every run bounded.
# Where the flow's whole-process CPU went (perf record, 2026-12-05): the start-up. Worker::init reserves one
# exchange per session slot, each with a response sink whose 64 KiB body buffer was zero-filled at construction,
# so a flow that reads bodies memset slots x 64 KiB before the first send (36 % of the samples in memset and as
# much in page faults at 100 sessions/s). Since then a sink's buffers grow when a response needs them
# (http::ResponseSink): on the loaded 2-core host (load 9-14) flow/static went from 2.28 (300/s) and 5.66 (1000/s,
# the flow 7.2 s of CPU against 1.3 s) with main's binary to 0.65, 0.86 (300/s) and 1.20, 0.60 (1000/s).
# usage: bench/flow_cost.sh [BUILD_DIR]   (env: ROUNDS=3 SECS=10 RATE=100/s EXTRA="--spin-below 0": more run flags)
set -euo pipefail
BUILD=${1:-build/release}
OPENLOOP=$BUILD/src/cli/openloop
ROUNDS=${ROUNDS:-3}
SECS=${SECS:-10}
RATE=${RATE:-100/s}
[[ -x $OPENLOOP ]] || { echo "flow_cost: $OPENLOOP is not an executable (build it first)" >&2; exit 2; }
export OPENLOOP_E2E_LIB=$(dirname "$0")/../tests/e2e/lib.sh
source "$OPENLOOP_E2E_LIB" "$OPENLOOP"
start_lab --workers 8 --service 0

# plan NAME: the scenario (flow or static) at RATE for SECS.
plan() {
  local login=login a=a
  if [[ $1 == flow ]]; then
    login='{request: login, capture: [{as: token, json: $.token}]}'
    a='{request: a, check: [{status: 200}]}'
  fi
  cat >"$E2E_TMP/$1.yaml" <<YAML
target: $LAB_URL
requests:
  login: {method: POST, path: /_lab/login, body: '{"user": "ann"}'}
  a: {path: /a, headers: {Authorization: 'Bearer $([[ $1 == flow ]] && echo '{{token}}' || echo 'tok-static')'}}
  b: {path: /b}
scenarios:
  s:
    model: sessions
    session_rate: $RATE
    duration: ${SECS}s
    cookies: off
    steps: [$login, $a, b]
YAML
}
plan flow
plan static

perf_ok=0
perf stat -e task-clock -x, -o "$E2E_TMP/probe.perf" -- true 2>/dev/null && perf_ok=1
# cpu_ms NAME: runs the plan, prints "CPU_MS REQUESTS".
cpu_ms() {
  local r=$E2E_TMP/$1.json code=0 ms
  if ((perf_ok)); then
    timeout $((SECS + 60)) perf stat -e task-clock -x, -o "$E2E_TMP/$1.perf" -- \
      "$OPENLOOP" run "$E2E_TMP/$1.yaml" -t 1 -q --no-html --json "$r" ${EXTRA:-} >/dev/null 2>"$E2E_TMP/$1.err" || code=$?
    ms=$(awk -F, '/task-clock/ { print $1 }' "$E2E_TMP/$1.perf")
  else
    timeout $((SECS + 60)) /usr/bin/time -f '%U %S' -o "$E2E_TMP/$1.time" \
      "$OPENLOOP" run "$E2E_TMP/$1.yaml" -t 1 -q --no-html --json "$r" ${EXTRA:-} >/dev/null 2>"$E2E_TMP/$1.err" || code=$?
    ms=$(awk '{ print 1000 * ($1 + $2) }' "$E2E_TMP/$1.time")
  fi
  [[ $code == 0 || $code == 1 || $code == 3 ]] || fail "$1: exit $code: $(cat "$E2E_TMP/$1.err")"
  [[ $(json "$r" .summary.counts.ok) == "$(json "$r" .summary.counts.completed)" ]] ||
    fail "$1: not every response was ok: $(jq -c .summary.counts "$r")"
  echo "$ms $(json "$r" .summary.counts.completed) $(json "$r" '.generator.cpu_s * 1000')"
}

ratios=()
worker_ratios=()
for round in $(seq "$ROUNDS"); do
  read -r flow_ms flow_n flow_worker_ms < <(cpu_ms flow)
  read -r static_ms static_n static_worker_ms < <(cpu_ms static)
  flow_us=$(awk -v c="$flow_ms" -v n="$flow_n" 'BEGIN { printf "%.2f", 1000 * c / n }')
  static_us=$(awk -v c="$static_ms" -v n="$static_n" 'BEGIN { printf "%.2f", 1000 * c / n }')
  ratio=$(awk -v f="$flow_us" -v s="$static_us" 'BEGIN { printf "%.3f", f / s }')
  ratios+=("$ratio")
  worker_ratio=$(awk -v f="$flow_worker_ms" -v s="$static_worker_ms" -v fn="$flow_n" -v sn="$static_n" \
    'BEGIN { printf "%.3f", (f / fn) / (s / sn) }')
  worker_ratios+=("$worker_ratio")
  printf 'round %d: flow %s us/request (%s requests, %.0f ms CPU)   static %s us/request (%s, %.0f ms)   ratio %s   worker threads alone %.0f / %.0f ms, ratio %s   load %s\n' \
    "$round" "$flow_us" "$flow_n" "$flow_ms" "$static_us" "$static_n" "$static_ms" "$ratio" "$flow_worker_ms" \
    "$static_worker_ms" "$worker_ratio" "$(cut -d' ' -f1-3 /proc/loadavg)"
done
printf 'worker threads alone (generator.cpu_s: the run, without the start-up), flow / static: %s\n' "${worker_ratios[*]}"
printf 'CPU per request, flow / static, over %d rounds: %s (mean %s; goal <= 1.3; CPU from %s)\n' "$ROUNDS" "${ratios[*]}" \
  "$(printf '%s\n' "${ratios[@]}" | awk '{ s += $1 } END { printf "%.3f", s / NR }')" \
  "$( ((perf_ok)) && echo 'perf stat task-clock' || echo '/usr/bin/time utime+stime')"
