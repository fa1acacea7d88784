# A dead target (nothing listens at HOST:PORT) under `ramp` and `probe metastable`: each stops at its first run's
# first interval instead of running every step or phase against it, exits 4 (runtime failure: nothing was
# measured) and says "nothing listens at HOST:PORT (connection refused)", as `run` does (dead_target_test.sh); its
# file is written for what ran, not interrupted, the run's warning saying why it ended early.
# e2e: parallel-safe (exit codes against nothing; their 8 s bound is loose)
source "$OPENLOOP_E2E_LIB"
cd "$E2E_TMP"
port=$(free_port)  # nothing listens there

# expect_dead NAME ARGS...: `openloop ARGS` exits 4 within 8 s (20 s or more were planned), names the dead target on
# stderr and writes NAME.json, not interrupted, whose one run's warning names it.
expect_dead() {
  local name=$1 code=0 start elapsed
  shift
  start=$(date +%s.%N)
  "$OPENLOOP" "$@" --threads 1 --timeout 500ms -q --json "$name.json" >"$name.txt" 2>"$name.err" || code=$?
  elapsed=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')
  [[ $code == 4 ]] || fail "$name, dead target: exit $code, expected 4: $(cat "$name.err" "$name.txt")"
  grep -qF "nothing listens at 127.0.0.1:$port (connection refused)" "$name.err" ||
    fail "$name: stderr does not name the dead target: $(cat "$name.err")"
  grep -qF "every request failed to connect" "$name.err" || fail "$name: stderr: $(cat "$name.err")"
  if grep -qE 'could not send on schedule|the generator did not apply' "$name.err" "$name.txt"; then
    fail "$name: the generator blamed for a dead target: $(cat "$name.err" "$name.txt")"
  fi
  [[ -s $name.json ]] || fail "$name: no $name.json"
  jq -e '.interrupted == false and (.runs | length) == 1' "$name.json" >/dev/null ||
    fail "$name.json: interrupted or not one run: $(jq -c '{interrupted, runs: (.runs | length)}' "$name.json")"
  jq -e --arg want "nothing listens at 127.0.0.1:$port (connection refused)" \
    '[.runs[0] | (.results // .) | .warnings[] | select(contains($want))] | length == 1' "$name.json" >/dev/null ||
    fail "$name.json: the run's warning does not say why it ended early: $(jq -c '.runs[0] | (.results // .) | .warnings' "$name.json")"
  # 20 s or more planned: stopped after the first one-second interval, plus start-up on a loaded machine.
  assert_cmp "$elapsed" '<' 8 "$name: stopped early, not after the whole plan"
  pass "$name, dead target: exit 4 after ${elapsed}s ($(head -n 1 "$name.err"))"
}

# Five steps of 4 s: 20 s planned, one run (connections carry over) and one run per step (--fresh).
expect_dead ramp ramp "http://127.0.0.1:$port/" --from 50/s --step-add 50/s --max-steps 5 --hold 2s --warmup 2s \
  --stop-at never
expect_dead ramp-fresh ramp "http://127.0.0.1:$port/" --from 50/s --step-add 50/s --max-steps 5 --hold 2s \
  --warmup 2s --stop-at never --fresh --cooldown 0s
# A load spike needs no lab: 2 + 4 + 3 + 10 s planned with --quick.
expect_dead probe probe metastable "http://127.0.0.1:$port/" --base 50/s --trigger load:100/s --quick
