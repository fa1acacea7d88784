# A real nginx access log replayed back to nginx: nginx logs a first run's requests ($msec and $request_time in a
# log_format of our own, and the combined format beside it); the log replayed at --speed 2 reaches nginx as the
# same requests (the same paths, as many), in half the span, on schedule; the combined log's one-second stamps are
# spread and the run says so.
source "$OPENLOOP_E2E_LIB"
require_tools jq awk nginx
port=$(free_port)
fmt='$remote_addr [$time_local] "$request" $status $msec $request_time "$http_user_agent"'
start_nginx "$port" "access_log $E2E_TMP/timed.log timed; access_log $E2E_TMP/combined.log combined;" "" \
  "log_format timed '$fmt';"
# The first run: templated paths, Poisson arrivals (bursty), 400 requests over 2 s (600 over 3 s until stop 47: the
# replay's span is judged within 50 ms whatever its length, and 400 lines of 50 paths compare as well).
"$OPENLOOP" run "http://127.0.0.1:$port/item/{{uniform(1, 50)}}" --rate 200/s --duration 2s --arrival poisson \
  --json "$E2E_TMP/r1.json" >"$E2E_TMP/out1.txt" 2>&1 || true
completed=$(json "$E2E_TMP/r1.json" .summary.counts.completed)
# nginx writes a line as each request ends: wait (bounded) until every completed request is logged (a request the
# run counted unfinished at its end may be logged too: the trace is what nginx logged).
for _ in $(seq 50); do [[ $(wc -l <"$E2E_TMP/timed.log") -ge $completed ]] && break; sleep 0.1; done
# nginx also logs the connection start_nginx's port check opened and closed without a request ("" 400): a real
# log's line that is no request, counted apart as an empty request line and skipped (no --skip-bad needed).
sent=$(grep -vc '"" 400' "$E2E_TMP/timed.log")
empty=$(grep -c '"" 400' "$E2E_TMP/timed.log")
assert_cmp "$sent" ">=" "$completed" "nginx logged every completed request of the first run"
assert_cmp "$sent" "<=" "$(json "$E2E_TMP/r1.json" .summary.counts.intended)" "and no request it was not sent"
cp "$E2E_TMP/timed.log" "$E2E_TMP/trace.log"
cp "$E2E_TMP/combined.log" "$E2E_TMP/trace-combined.log"
: >"$E2E_TMP/timed.log"
: >"$E2E_TMP/combined.log"

r=$E2E_TMP/r2.json
code=0
"$OPENLOOP" run --replay "$E2E_TMP/trace.log" --replay-log-format "$fmt" --target "http://127.0.0.1:$port" \
  --speed 2 --json "$r" >"$E2E_TMP/out2.txt" 2>&1 || code=$?
accept_invalid_only_for "$code" "$r" '^send lateness'
assert_conserved "$r"
assert_cmp "$(jq '.summary.counts.intended + .warmup.counts.intended' "$r")" == "$sent" "every log line replayed"
assert_cmp "$(json "$r" .plan.replay.records)" == "$sent" "the results record the trace's records"
assert_cmp "$empty" ">=" 1 "the log holds a line without a request (the port check's connection)"
assert_cmp "$(json "$r" .plan.replay.empty_request_lines)" == "$empty" "the lines without a request counted apart"
assert_cmp "$(json "$r" .plan.replay.skipped_lines)" == 0 "and not as bad lines"
grep -q "$empty empty request lines skipped" "$E2E_TMP/out2.txt" || fail "the run says so: $(cat "$E2E_TMP/out2.txt")"
for _ in $(seq 50); do [[ $(wc -l <"$E2E_TMP/timed.log") -ge $sent ]] && break; sleep 0.1; done
assert_cmp "$(wc -l <"$E2E_TMP/timed.log")" == "$sent" "nginx logged as many requests again"
# The same requests: the paths, as a multiset.
paths() { grep -v '"" 400' "$1" | awk -F'"' '{ split($2, a, " "); print a[2] }' | sort; }
diff <(paths "$E2E_TMP/trace.log") <(paths "$E2E_TMP/timed.log") >/dev/null || fail "the replay's paths differ"
# Half the span: start = $msec - $request_time (field 6 and 7 of the line split by spaces after the request).
span() { grep -v '"" 400' "$1" | awk '{ n = split($0, f, " "); s = f[n - 2] - f[n - 1]; if (NR == 1 || s < lo) lo = s; if (NR == 1 || s > hi) hi = s }
  END { printf "%.3f", hi - lo }'; }
want=$(awk -v s="$(span "$E2E_TMP/trace.log")" 'BEGIN { printf "%.3f", s / 2 }')
# Only a run that sent on schedule (VALID) is held to the span: a generator starved of CPU sends late and bunched.
if [[ $code == 0 ]]; then
  assert_near "$(span "$E2E_TMP/timed.log")" "$want" 0.05 "the replay at 2x spans half the recorded span (s)"
  assert_cmp "$(json "$r" .summary.send_lateness_ms.p99)" "<" 2 "send lateness p99 under 2 ms"
else
  echo "note: span not judged on a run late on its schedule (span $(span "$E2E_TMP/timed.log") s, want $want s)"
fi
pass "nginx log (\$msec, \$request_time) replayed back to nginx: same requests, half the span"

# The combined format (the default): one-second stamps spread within their second, and said.
code=0
"$OPENLOOP" run --replay "$E2E_TMP/trace-combined.log" --target "http://127.0.0.1:$port" --speed 2 \
  --json "$E2E_TMP/r3.json" >"$E2E_TMP/out3.txt" 2>&1 || code=$?
accept_invalid_only_for "$code" "$E2E_TMP/r3.json" '^send lateness'
assert_cmp "$(jq '.summary.counts.intended + .warmup.counts.intended' "$E2E_TMP/r3.json")" == "$sent" \
  "the combined log replayed whole"
[[ $(json "$E2E_TMP/r3.json" .plan.replay.seconds_spread) == true ]] || fail "the results say stamps were spread"
grep -q 'whole seconds' "$E2E_TMP/out3.txt" || fail "the summary says the stamps were spread: $(cat "$E2E_TMP/out3.txt")"
pass "combined log: one-second stamps spread and said"
