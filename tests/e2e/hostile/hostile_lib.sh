# hostile_lib.sh: helpers for the hostile-target tests (sourced after tests/e2e/lib.sh): the misbehaving server and
# one short run against one of its behaviours.
# shellcheck shell=bash

HOSTILE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# start_hostile: starts hostile_server.py (its files in $E2E_TMP) and waits (≤ 10 s: Python starts slowly on a loaded
# machine) for its listening line. Sets HOSTILE_PORT (behaviour by path) and SILENT_PORT (accepts, never reads).
start_hostile() {
  : >"$E2E_TMP/hostile.out"
  TMPDIR=$E2E_TMP python3 "$HOSTILE_DIR/hostile_server.py" >"$E2E_TMP/hostile.out" 2>"$E2E_TMP/hostile.err" &
  local pid=$! line=
  E2E_PIDS+=("$pid")
  for _ in $(seq 200); do
    line=$(sed -n 's/^hostile listening \([0-9]*\) \([0-9]*\)$/\1 \2/p' "$E2E_TMP/hostile.out" 2>/dev/null || true)
    [[ -n $line ]] && break
    kill -0 "$pid" 2>/dev/null || fail "the hostile server exited: $(cat "$E2E_TMP/hostile.err")"
    sleep 0.05
  done
  [[ -n $line ]] || fail "the hostile server did not listen within 10 s"
  read -r HOSTILE_PORT SILENT_PORT <<<"$line"
}

# hostile_run NAME URL ARGS...: `openloop run URL ARGS` for HOSTILE_DURATION_MS (default 500) on one thread at
# HOSTILE_RATE (default 40/s: the 20 arrivals the expect_* helpers count, as 1 s at 20/s gave them, in half the
# time) with a timeout of HOSTILE_TIMEOUT_MS (default 500) and `--slo none` (these targets fail on purpose: the runs
# check the counting, not the target), results in $E2E_TMP/NAME.json, summary in NAME.txt, stderr in NAME.err.
# Sets CODE (exit code), R (the results file) and ELAPSED_S (wall time). Fails unless the run ended on time: within
# its arrivals' span plus the timeout plus 3 s for start-up and writing on a loaded machine (a hang is caught here,
# not by CTest's 120 s).
hostile_run() {
  hostile_start "$@"
  hostile_join "$1"
}

# hostile_start NAME URL ARGS...: hostile_run's run (the HOSTILE_* settings read now) started in the background, its
# wall time measured from its own start; hostile_join NAME waits for it and judges it as hostile_run does. A script
# starts a few light runs at once (each 20 arrivals at 40/s: a nearly idle generator, the server's answers
# immediate) where they would otherwise wait for each other; runs that keep a core busy or whose counts depend on
# round trips stay alone. With a sanitizer or Debug build (hostile_slow_build) each run is made at once, in the
# foreground, one after another: such a run alone takes 2.7-3.7 s of the 4 allowed (asan-ubsan, load 3.5), and six
# together took 13.8 s.
hostile_start() {
  local name=$1
  : >"$E2E_TMP/$name.pid"
  if hostile_slow_build; then
    hostile_exec "$@"
  else
    hostile_exec "$@" &
    E2E_PIDS+=("$!")
    echo "$!" >"$E2E_TMP/$name.pid"
  fi
}

# hostile_slow_build: true for a build whose runs are several times slower: CTest says so for a sanitizer or Debug
# build (OPENLOOP_E2E_SLOW_BUILD=1, tests/e2e/CMakeLists.txt); run by hand, a binary linked to a sanitizer runtime.
hostile_slow_build() {
  if [[ -z ${OPENLOOP_E2E_SLOW_BUILD:-} ]]; then
    OPENLOOP_E2E_SLOW_BUILD=0
    if ldd "$OPENLOOP" 2>/dev/null | grep -qE 'lib(a|t|ub)san'; then OPENLOOP_E2E_SLOW_BUILD=1; fi
  fi
  [[ $OPENLOOP_E2E_SLOW_BUILD == 1 ]]
}

# hostile_exec NAME URL ARGS...: the run itself; its exit code, wall time, length and timeout go to NAME.ended.
hostile_exec() {
  local name=$1 url=$2 d=${HOSTILE_DURATION_MS:-500} t=${HOSTILE_TIMEOUT_MS:-500} rate=${HOSTILE_RATE:-40/s} start code=0
  shift 2
  start=$(date +%s%N)
  timeout 30 "$OPENLOOP" run "$url" --rate "$rate" --duration "${d}ms" --timeout "${t}ms" --threads 1 --slo none \
    "$@" --json "$E2E_TMP/$name.json" >"$E2E_TMP/$name.txt" 2>"$E2E_TMP/$name.err" || code=$?
  echo "$code $(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.3f", (b - a) / 1e9 }') $d $t" \
    >"$E2E_TMP/$name.ended"
}

hostile_join() {
  local name=$1 d t pid kept=()
  pid=$(cat "$E2E_TMP/$name.pid")
  if [[ -n $pid ]]; then
    wait "$pid" || true
    for d in "${E2E_PIDS[@]}"; do [[ $d == "$pid" ]] || kept+=("$d"); done
    E2E_PIDS=("${kept[@]}")
  fi
  [[ -s $E2E_TMP/$name.ended ]] || fail "$name: the run's shell ended without its exit code"
  read -r CODE ELAPSED_S d t <"$E2E_TMP/$name.ended"
  R=$E2E_TMP/$name.json
  [[ $CODE != 124 ]] || fail "$name: the run hung (killed after 30 s)"
  ((CODE < 128)) || fail "$name: the run crashed (exit $CODE): $(tail -3 "$E2E_TMP/$name.err")"
  assert_cmp "$ELAPSED_S" "<" "$(awk -v d="$d" -v t="$t" 'BEGIN { print (d + t) / 1000 + 3 }')" \
    "$name: the run ended on time"
}

# hostile_counts JQ...: the values JQ... of the run's results file R, one jq for them all (each jq costs tens of ms to
# start, and a run's checks read several): sets the array V, in order; a value missing or null fails (json).
hostile_counts() {
  local IFS=,
  # Joined by the unit separator (not whitespace to read: an empty value stays a field), newlines as spaces.
  IFS=$'\x1f' read -r -a V <<<"$(json "$R" "[$*] | if any(.[]; . == null) then null
    else map(if type == \"string\" then gsub(\"\\n\"; \" \") else tojson end) | join(\"\\u001f\") end")"
}

# expect_errors NAME KIND: every one of the run's 20 requests failed with error KIND (and nothing else), the run is
# conserved and its results complete.
expect_errors() {
  local name=$1 kind=$2
  assert_complete_results "$R" 1
  hostile_counts .summary.counts.intended .summary.counts.errors ".summary.counts.errors_by_kind.$kind" \
    ".summary.error_examples.$kind" .summary.counts
  assert_cmp "${V[0]}" == 20 "$name: 20 arrivals"
  assert_cmp "${V[1]}" == 20 "$name: every request an error (${V[4]})"
  assert_cmp "${V[2]}" == 20 "$name: every error of kind $kind"
  [[ -n ${V[3]} ]] || fail "$name: no example message for $kind errors"
  pass "$name: 20 errors of kind $kind (${V[3]})"
}

# expect_timeouts NAME: every request timed out, censored at the 500 ms deadline.
expect_timeouts() {
  local name=$1
  assert_complete_results "$R" 1
  hostile_counts .summary.counts.intended .summary.counts.timeouts .summary.response_time_ms.max .summary.counts
  assert_cmp "${V[0]}" == 20 "$name: 20 arrivals"
  assert_cmp "${V[1]}" == 20 "$name: every request timed out (${V[3]})"
  assert_cmp "${V[2]}" "<=" 501 "$name: timeouts censored at the deadline"
  pass "$name: 20 timeouts"
}

# expect_ok NAME: every request completed with 200.
expect_ok() {
  local name=$1
  assert_complete_results "$R" 1
  hostile_counts .summary.counts.intended .summary.counts.ok '.summary.counts.status_classes["2xx"]' .summary.counts
  assert_cmp "${V[0]}" == 20 "$name: 20 arrivals"
  assert_cmp "${V[1]}" == 20 "$name: every request ok (${V[3]})"
  assert_cmp "${V[2]}" == 20 "$name: every final status 2xx"
  pass "$name: 20 ok"
}
