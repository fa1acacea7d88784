# Partly-open model: sessions arrive at a rate, each runs its steps in order; with a small --max-sessions and a
# slow service, sessions are dropped and counted, and sessions and requests are both conserved.
# e2e: parallel-safe (drops forced by the session cap; conservation)
source "$OPENLOOP_E2E_LIB"
start_lab --workers 2 --service 40ms
code=0
"$OPENLOOP" run "$LAB_URL/" --session-rate 40/s --session-steps 3 --think 10ms --max-sessions 6 --duration 3s \
  --json "$E2E_TMP/r.json" >"$E2E_TMP/out.txt" || code=$?
[[ $code == 3 ]] || fail "exit $code, expected 3: the dropped sessions make the run INVALID"
r=$E2E_TMP/r.json
json "$r" '.verdict.reasons[]' | grep -q '^dropped [0-9]* of [0-9]* arriving sessions' ||
  fail "the verdict names the dropped sessions: $(jq -c .verdict.reasons "$r")"
[[ $(json "$r" .model) == sessions ]] || fail "model sessions"
assert_conserved "$r"
bad=$(json "$r" '[.summary.flows, .intervals[].flows] | map(select(
  ([.sessions_intended, .sessions_completed, .sessions_failed, .sessions_dropped, .sessions_unfinished]
    | any(type != "number")) or
  .sessions_intended != .sessions_completed + .sessions_failed + .sessions_dropped + .sessions_unfinished)) | length')
[[ $bad == 0 ]] || fail "session conservation violated in $bad place(s)"
assert_cmp "$(json "$r" .summary.flows.sessions_intended)" == 120 "40/s for 3 s"
assert_cmp "$(json "$r" .summary.flows.sessions_dropped)" ">" 10 "the cap drops sessions"
assert_cmp "$(json "$r" .summary.flows.sessions_completed)" ">" 10 "some sessions completed"
assert_cmp "$(json "$r" .summary.flows.session_time_ms.p50)" ">=" 120 "a session lasts at least 3 steps of 40 ms"
json "$r" '.verdict.reasons[]' | grep -q 'sessions' || fail "verdict names the dropped sessions"
pass "sessions conserved: $(jq -c '.summary.flows | {sessions_intended, sessions_completed, sessions_failed, sessions_dropped, sessions_unfinished}' "$r")"
