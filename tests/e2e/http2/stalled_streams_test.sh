#!/usr/bin/env bash
# HTTP/2 streams a server never serves (tests/e2e/hostile/hostile_h2_server.py's window_closed: SETTINGS with a
# stream window of 0, then nothing): request bodies that can never go out end as timeouts whose example says the
# window never opened; and Ctrl-C (twice, as for HTTP/1.1) ends a run whose every stream is stuck within 1 s of the
# second signal, results written, exit 130.
# e2e: light (timeouts forced by a closed window at 20-200/s; Ctrl-C within 1 s)
source "$OPENLOOP_E2E_LIB"
require_tools jq python3

: >"$E2E_TMP/h2.out"
python3 "$(dirname "$0")/../hostile/hostile_h2_server.py" >"$E2E_TMP/h2.out" 2>"$E2E_TMP/h2.err" &
E2E_PIDS+=("$!")
for _ in $(seq 200); do  # ≤ 10 s: Python starts slowly on a loaded machine
  grep -q '^hostile-h2 ready$' "$E2E_TMP/h2.out" && break
  sleep 0.05
done
grep -q '^hostile-h2 ready$' "$E2E_TMP/h2.out" || fail "the hostile HTTP/2 server did not listen: $(cat "$E2E_TMP/h2.err")"
port=$(sed -n 's/^hostile-h2 window_closed \([0-9]*\)$/\1/p' "$E2E_TMP/h2.out")
url="http://127.0.0.1:$port/"

# A POST body against a stream window of 0: every request times out at its deadline, and the timeouts' example
# names the window (not a bare timeout).
r=$E2E_TMP/window.json
code=0
timeout 30 "$OPENLOOP" run "$url" --http2 --method POST --body hello --rate 20/s --duration 1s --timeout 500ms \
  --threads 1 --slo none --json "$r" >"$E2E_TMP/window.txt" 2>&1 || code=$?
accept_invalid_only_for "$code" "$r" '^send lateness'
assert_complete_results "$r" 1
assert_cmp "$(json "$r" .summary.counts.timeouts)" == 20 "window: every request timed out ($(jq -c .summary.counts "$r"))"
json "$r" .summary.error_examples.timeout | grep -qF "never opened the HTTP/2 stream's flow-control window" ||
  fail "window: the timeout example does not name the window: $(json_or_null "$r" .summary.error_examples.timeout)"
grep -qF "e.g. timeout: the server never opened" "$E2E_TMP/window.txt" ||
  fail "window: the summary does not show the example: $(cat "$E2E_TMP/window.txt")"
pass "window never opened: 20 timeouts, named ($(json "$r" .summary.error_examples.timeout))"

# A GET is not held by the window: its timeouts have no such example (the server just never answers).
r=$E2E_TMP/get.json
code=0
timeout 30 "$OPENLOOP" run "$url" --http2 --rate 20/s --duration 1s --timeout 500ms --threads 1 --slo none \
  --json "$r" >"$E2E_TMP/get.txt" 2>&1 || code=$?
accept_invalid_only_for "$code" "$r" '^send lateness'
assert_cmp "$(json "$r" .summary.counts.timeouts)" == 20 "get: every request timed out"
jq -e '.summary.error_examples.timeout == null' "$r" >/dev/null ||
  fail "get: a timeout example where no window held anything: $(jq -c .summary.error_examples "$r")"
pass "a GET to the same server: 20 timeouts, no window named"

# Ctrl-C while every stream is stuck (a 30 s run, 10 s timeout), as for HTTP/1.1 (tests/e2e/run/absurd_rate_test.sh):
# the first SIGINT stops scheduling and waits for the requests in flight, the second ends the run now, within 1 s.
# Each signal follows what it waits for, polled, not slept for: the first once the server holds a stream of this run
# (a connection alone was not enough: on a quiet host the signal came before the first stream, and nothing was in
# flight), the second once the run says it is waiting for them.
r=$E2E_TMP/int.json
held_before=$(grep -c '^hostile-h2 window_closed holds stream' "$E2E_TMP/h2.out" || true)
"$OPENLOOP" run "$url" --http2 --rate 200/s --duration 30s --timeout 10s --threads 1 --slo none --json "$r" \
  >"$E2E_TMP/int.txt" 2>"$E2E_TMP/int.err" &
pid=$!
E2E_PIDS+=("$pid")
held() { (($(grep -c '^hostile-h2 window_closed holds stream' "$E2E_TMP/h2.out" || true) > held_before)); }
for _ in $(seq 1000); do  # ≤ 20 s
  held && break
  kill -0 "$pid" 2>/dev/null || fail "the run ended before the server held a stream: $(cat "$E2E_TMP/int.err")"
  sleep 0.02
done
held || fail "the server held no stream of the run in 20 s: $(cat "$E2E_TMP/int.err")"
kill -INT "$pid"
interrupt_on_line "$pid" "$E2E_TMP/int.err" 'waiting for in-flight requests'
[[ $INTERRUPT_CODE == 130 ]] || fail "interrupt: exit $INTERRUPT_CODE, expected 130: $(tail -3 "$E2E_TMP/int.err")"
assert_cmp "$INTERRUPT_EXIT_S" "<" 1 "interrupt: the run ended within 1 s of the second signal"
jq -e '.verdict.interrupted == true' "$r" >/dev/null || fail "interrupt: the results are not marked interrupted"
assert_conserved "$r"
assert_cmp "$(json "$r" .summary.counts.unfinished)" ">" 0 "interrupt: the stuck streams are there, unfinished"
assert_cmp "$(json "$r" .summary.counts.completed)" == 0 "interrupt: nothing was answered"
pass "Ctrl-C twice with every stream stuck: exit 130 ${INTERRUPT_EXIT_S}s after the second, $(json "$r" .summary.counts.unfinished) unfinished"
