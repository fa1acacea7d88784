# A VALID run that fails a latency SLO because openloop itself sent late (issue 33): the generator is stopped
# (SIGSTOP) for 400 ms in the middle of a 3-s run at 200/s, so the ~80 arrivals due meanwhile go out up to 400 ms
# late while the lab answers each in 1 ms. The p99 SLO fails and exits 1 (it failed as measured), and beside it the
# summary, the results file, the JUnit case and the HTML report say how much of that p99 is openloop's own send lateness, so it does
# not read as the target's regression. A control: an SLO failed by the target's own 30-ms service gets no such note.
# e2e: light (a forced 400-ms stop of the generator in the p99 and its send lateness)
source "$(dirname "$0")/lib.sh"
require_tools xmllint
start_lab --workers 4 --service 1ms
out=$E2E_TMP/out.txt r=$E2E_TMP/r.json j=$E2E_TMP/r.xml
# --max-lateness 2s and --accept-bunching: the stop is the lateness under test; without them the verdict would
# (rightly) call the run INVALID, exit 3, and its SLOs would say nothing about the target.
"$OPENLOOP" run "$LAB_URL/" --rate 200/s --duration 3s --threads 1 -q --max-lateness 2s --accept-bunching \
  --slo 'p99<50ms' --json "$r" --junit "$j" >"$out" 2>&1 &
pid=$!
E2E_PIDS+=("$pid")
# Stopped once the lab has answered 100 requests (half a second into the run), for 400 ms.
n=0
for _ in $(seq 250); do
  n=$(lab_query .completed)
  ((n >= 100)) && break
  sleep 0.02
done
((n >= 100)) || fail "the run had not sent 100 requests after 5 s: $(cat "$out")"
kill -STOP "$pid"
sleep 0.4 # the stall under test, not a wait for an event
kill -CONT "$pid"
code=0
wait "$pid" || code=$?
[[ $code == 1 ]] || fail "exit $code, expected 1 (the p99 SLO failed as measured): $(cat "$out")"
[[ $(json "$r" .verdict.valid) == true ]] || fail "the run is VALID: $(jq -c .verdict "$r")"
grep -qE '^  p99<50ms +[0-9.]+ms +< 50ms +FAILED$' "$out" || fail "the FAILED row: $(cat "$out")"
grep -A1 -E '^  p99<50ms ' "$out" | tail -1 |
  grep -qE "^    [0-9]+% of this p99 is openloop's own send lateness \(p99 [0-9.]+ms of response p99 [0-9.]+ms; service time p99 [0-9.]+(ms|µs)\): the target may not be at fault" ||
  fail "no lateness note under the FAILED row: $(cat "$out")"
assert_cmp "$(json "$r" '.slos[0].lateness_share')" ">" 0.5 "most of the p99 is send lateness"
json "$r" '.slos[0].lateness_note' | grep -q "the target may not be at fault" || fail "results file: no note"
msg=$(xmllint --xpath 'string(//testcase[@name="SLO p99<50ms"]/failure/@message)' "$j")
[[ $msg == *"of this p99 is openloop's own send lateness"* ]] || fail "JUnit failure message: '$msg'"
grep -A1 '<th>p99&lt;50ms</th>' "$E2E_TMP/r.html" | grep -q '<tr class="slo-note">.*of this p99 is openloop.* own send lateness' ||
  fail "HTML report: no note under the FAILED row: $(grep -A1 '<th>p99&lt;50ms</th>' "$E2E_TMP/r.html")"
pass "a failed p99 that is mostly send lateness says so in the summary, the results file, JUnit and the HTML (exit 1)"

# The control: the target's own 100 ms fails p99<50ms; its send lateness is a small part of that p99, so no note.
# (A host busy enough to stall the generator for a good part of 100 ms makes the note right: then only its
# consistency with the file's own percentiles is checked.)
stop_lab
start_lab --workers 16 --service 100ms
t=$E2E_TMP/target.json
code=0
"$OPENLOOP" run "$LAB_URL/" --rate 50/s --duration 2s -q --max-lateness 2s --accept-bunching --slo 'p99<50ms' \
  --json "$t" --no-html >"$E2E_TMP/target.txt" 2>&1 || code=$?
[[ $code == 1 ]] || fail "control: exit $code, expected 1: $(cat "$E2E_TMP/target.txt")"
late=$(json "$t" .summary.send_lateness_ms.p99)
resp=$(json "$t" .summary.response_time_ms.p99)
if awk -v l="$late" -v r="$resp" 'BEGIN { exit !(l < 0.2 * r) }'; then
  grep -A1 -E '^  p99<50ms ' "$E2E_TMP/target.txt" | grep -q "send lateness" &&
    fail "control: a note beside the target's own failure: $(cat "$E2E_TMP/target.txt")"
  [[ $(json_or_null "$t" '.slos[0].lateness_share') == null ]] || fail "control: a lateness share in the file"
  pass "an SLO failed by the target's own service time gets no lateness note"
else
  assert_cmp "$(json "$t" '.slos[0].lateness_share')" ">" 0.2 "control on a busy host: the note matches the file"
  echo "note: the control's own lateness p99 ${late} ms of response p99 ${resp} ms (busy host): its absence not checked"
fi
