# Per-phase timings and the per-request log against nginx: phases in JSON and the summary, new vs reused
# connections consistent with the counts, one log line per request (JSON to a file, CSV to standard output
# with the summary on standard error), and bad log flags refused.
# e2e: light (counts and the log's lines at 100-300/s, exact; INVALID only for the generator's lateness)
source "$OPENLOOP_E2E_LIB"
port=$(free_port)
start_nginx "$port"
r=$E2E_TMP/r.json
log=$E2E_TMP/log.jsonl
code=0
"$OPENLOOP" run "http://127.0.0.1:$port/" --rate 300/s --duration 2s --warmup 1s --threads 2 \
  --json "$r" --log-requests "$log" >"$E2E_TMP/out.txt" || code=$?
# Exit 3 only for send lateness alone (a loaded machine), as in open_basic_test.sh.
if [[ $code == 3 ]]; then
  only_schedule_reasons "$r" ||
    fail "verdict: $(json "$r" '.verdict.reasons')"
elif [[ $code != 0 ]]; then
  fail "exit $code ($(cat "$E2E_TMP/out.txt"))"
fi
assert_conserved "$r"
completed=$(json "$r" .summary.counts.completed)
new=$(json "$r" '.summary.phases.new_connection.ttfb_ms.count // 0')
reused=$(json "$r" '.summary.phases.reused_connection.ttfb_ms.count // 0')
opened=$(jq '.summary.counts.connections_opened + .warmup.counts.connections_opened' "$r")
# Every completed request (no retries) has its phases, on a new or a reused connection.
assert_cmp $((new + reused)) == "$completed" "new + reused = completed"
# A new-connection row is a connection's first request: never more than the connections opened.
assert_cmp "$new" "<=" "$opened" "first requests on a connection <= connections opened"
assert_cmp "$reused" ">" 0 "keep-alive: most requests reuse a connection"
assert_cmp "$(json "$r" '.summary.phases.reused_connection.connect_ms // {} | length')" == 0 \
  "no connect phase on a reused connection"
assert_cmp "$(json "$r" .summary.phases.dns_ms)" ">=" 0 "the one DNS resolution is reported"
assert_cmp "$(json "$r" .summary.phases.reused_connection.ttfb_ms.p50)" ">" 0 "time to first byte measured"
# Each request's first byte comes before its whole response; 2 % of room for the phase histograms' 2 digits.
assert_cmp "$(json "$r" .summary.phases.reused_connection.ttfb_ms.p50)" "<=" \
  "$(jq '.summary.service_time_ms.p50 * 1.02' "$r")" "first byte comes before the whole response"
grep -q '^phases (p50 / p99)   dns ' "$E2E_TMP/out.txt" || fail "summary has the phases block: $(cat "$E2E_TMP/out.txt")"
grep -q '^  reused connection (' "$E2E_TMP/out.txt" || fail "summary has the reused-connection line"
# The lines count attempts, the generator line connections; when they differ the summary says by how many and why.
grep -q "^  reused connection ($reused attempts)" "$E2E_TMP/out.txt" || fail "the reused line names its attempts"
first_attempts=$(sed -n 's/^  new connection (\([0-9]*\) attempts).*/\1/p' "$E2E_TMP/out.txt")
first_attempts=${first_attempts:-0}
assert_cmp "$first_attempts" ">=" "$new" "new-connection attempts >= first requests answered on one"
if ((opened > first_attempts)); then
  grep -q "^  ($((opened - first_attempts)) of the $opened connections opened carried no measured request: opened ahead" \
    "$E2E_TMP/out.txt" || fail "connections opened $opened, new-connection attempts $first_attempts: no line says why"
else
  ! grep -q 'carried no measured request' "$E2E_TMP/out.txt" || fail "an explanation with nothing to explain"
fi
# The log: one line per intended request (warm-up included), minus the records the writer dropped (counted).
intended=$(jq '.summary.counts.intended + .warmup.counts.intended' "$r")
dropped=$(json "$r" .summary.request_log.dropped)
lines=$(wc -l <"$log")
assert_cmp "$lines" == $((intended - dropped)) "log lines = intended - dropped records"
assert_cmp "$(json "$r" .summary.request_log.written)" == "$lines" "written count = lines"
assert_cmp "$dropped" == 0 "300/s is far below what the writer keeps up with"
jq -e . "$log" >/dev/null || fail "every log line is JSON"
assert_cmp "$(jq -s 'map(select(.warmup == false and .outcome == "ok")) | length' "$log")" == \
  "$(json "$r" .summary.counts.ok)" "ok lines of the measured period = ok count"
assert_cmp "$(jq -s 'map(select(.warmup)) | length' "$log")" == "$(json "$r" .warmup.counts.intended)" \
  "warm-up requests are logged and flagged"
first=$(head -1 "$log")
for field in intended_s sent_s response_ms ttfb_ms body_ms status bytes_in bytes_out; do
  [[ $(jq -r ".$field | type" <<<"$first") == number ]] || fail "$field is a number in $first"
done
[[ $(jq -r .request <<<"$first") == "GET /" ]] || fail "request name in $first"
grep -q '^request log  [0-9]* lines written   0 dropped' "$E2E_TMP/out.txt" || fail "summary names the log counts"
pass "phases and JSON log"

# CSV to standard output: only log lines there (header first); the summary goes to standard error.
code=0
"$OPENLOOP" run "http://127.0.0.1:$port/" --rate 100/s --duration 1s --log-requests - --log-format csv -q \
  --json "$E2E_TMP/csv.json" >"$E2E_TMP/log.csv" 2>"$E2E_TMP/err.txt" || code=$?
[[ $code == 0 || $code == 3 ]] || fail "csv run exit $code: $(cat "$E2E_TMP/err.txt")"
head -1 "$E2E_TMP/log.csv" | grep -q '^intended_s,sent_s,response_ms,' || fail "csv header: $(head -1 "$E2E_TMP/log.csv")"
assert_cmp $(($(wc -l <"$E2E_TMP/log.csv") - 1)) == "$(json "$E2E_TMP/csv.json" .summary.request_log.written)" \
  "csv rows = written"
# Each row ends with the outcome, the request, warm-up, then the protocol (h1), the connection and no stream.
assert_cmp "$(tail -n +2 "$E2E_TMP/log.csv" | grep -vcE ',ok,,GET /,false,h1,[0-9]+\.[0-9]+,$' || true)" == 0 "every row ok"
grep -q '^verdict: ' "$E2E_TMP/err.txt" || fail "summary on standard error: $(cat "$E2E_TMP/err.txt")"
grep -q 'verdict' "$E2E_TMP/log.csv" && fail "no summary in the log stream"
pass "csv log to standard output"

expect_usage '--log-format: "xml" is not a log format (expected json or csv)' \
  "http://127.0.0.1:$port/" --rate 10/s --duration 1s --log-requests "$E2E_TMP/x" --log-format xml
expect_usage '--log-format: has no effect without --log-requests' \
  "http://127.0.0.1:$port/" --rate 10/s --duration 1s --log-format csv
expect_usage '--log-requests: cannot open "/nonexistent-dir/x.log"' \
  "http://127.0.0.1:$port/" --rate 10/s --duration 1s --log-requests /nonexistent-dir/x.log
pass "bad log flags refused"
