# Responses that break off or are not HTTP end as errors of the right kind, one per request; the run ends on time,
# stays VALID (the target's errors are measurements, not the rig's failure), conserved, its results complete.
source "$OPENLOOP_E2E_LIB"
source "$(dirname "$0")/hostile_lib.sh"
start_hostile
# behaviour (the server's path) : the error kind it must be counted as. The four runs at once (hostile_start: each
# a nearly idle generator, every answer immediate), then each judged.
pairs=(reset:reset garbage:parse truncated:read half_close_silent:reset)
for pair in "${pairs[@]}"; do hostile_start "${pair%%:*}" "http://127.0.0.1:$HOSTILE_PORT/${pair%%:*}"; done
for pair in "${pairs[@]}"; do
  name=${pair%%:*} kind=${pair##*:}
  hostile_join "$name"
  accept_invalid_only_for "$CODE" "$R" '^send lateness'
  expect_errors "$name" "$kind"
done
# The example messages say what happened (not the text of errno 0, "Success").
json "$E2E_TMP/truncated.json" .summary.error_examples.read | grep -q 'closed before the response was complete' ||
  fail "truncated: example $(json "$E2E_TMP/truncated.json" .summary.error_examples.read)"
json "$E2E_TMP/half_close_silent.json" .summary.error_examples.reset | grep -q 'closed before a response was received' ||
  fail "half_close_silent: example $(json "$E2E_TMP/half_close_silent.json" .summary.error_examples.reset)"
! json "$E2E_TMP/garbage.json" .summary.error_examples.parse | grep -q 'Success' ||
  fail "garbage: example $(json "$E2E_TMP/garbage.json" .summary.error_examples.parse)"
pass "broken responses counted by kind"
