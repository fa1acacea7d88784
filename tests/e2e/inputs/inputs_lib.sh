# inputs_lib.sh: helpers for the inputs tests (templates on the command line, plan variables, targets files), sourced
# after tests/e2e/lib.sh: a server that logs every request it receives, and a run that must apply its load.
INPUTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# start_capture: starts capture_server.py on 127.0.0.1 (killed on exit) and waits (≤ 5 s) for its port. Sets
# CAPTURE_URL and CAPTURE_LOG (one JSON line per request received: method, path, headers (lower-case names), body).
start_capture() {
  CAPTURE_LOG=$E2E_TMP/capture.jsonl
  : >"$CAPTURE_LOG"
  : >"$E2E_TMP/capture.port"
  python3 "$INPUTS_DIR/capture_server.py" "$CAPTURE_LOG" >"$E2E_TMP/capture.port" 2>"$E2E_TMP/capture.err" &
  E2E_PIDS+=("$!")
  local port=
  for _ in $(seq 100); do
    port=$(head -1 "$E2E_TMP/capture.port" 2>/dev/null || true)
    [[ -n $port ]] && break
    sleep 0.05
  done
  [[ -n $port ]] || fail "the capture server did not start: $(cat "$E2E_TMP/capture.err")"
  wait_port "$port"
  CAPTURE_URL=http://127.0.0.1:$port
}

# run_applied JSON ARGS...: `openloop run ARGS --json JSON` (output in JSON.txt) must exit 0; exit 3 is accepted only
# when send lateness is the sole reason (a loaded machine's generator), which does not change what was sent.
run_applied() {
  local out=$1 code=0
  shift
  "$OPENLOOP" run "$@" --json "$out" >"$out.txt" 2>&1 || code=$?
  if [[ $code == 3 ]]; then
    only_schedule_reasons "$out" ||
      fail "run $*: INVALID: $(json "$out" '.verdict.reasons')"
    echo "note: INVALID on send lateness only ($(uptime))"
  elif [[ $code != 0 ]]; then
    fail "run $*: exit $code: $(tail -5 "$out.txt")"
  fi
  assert_conserved "$out"
}

# expect_usage_of COMMAND MESSAGE ARGS...: `openloop COMMAND ARGS` must exit 2 (nothing sent) with MESSAGE in its
# output.
expect_usage_of() {
  local command=$1 want=$2 code=0
  shift 2
  "$OPENLOOP" "$command" "$@" >"$E2E_TMP/usage.txt" 2>&1 </dev/null || code=$?
  [[ $code == 2 ]] || fail "'$command $*' exit $code, expected 2: $(cat "$E2E_TMP/usage.txt")"
  grep -qF -- "$want" "$E2E_TMP/usage.txt" || fail "'$command $*' message lacks '$want': $(cat "$E2E_TMP/usage.txt")"
}
