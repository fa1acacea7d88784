# Phases of requests that got no response are kept for the phases they reached: against a lab slower than the
# client's timeout every request times out after its connection was set up, so the connect phase of each new
# connection is reported (before, phases covered responses only and this run had none), with no time to first byte;
# the per-request log carries the same phases on its timeout lines.
# e2e: light (connect phases of requests that all time out at 20/s)
source "$OPENLOOP_E2E_LIB"
start_lab --workers 1 --service 400ms
cd "$E2E_TMP"
code=0
"$OPENLOOP" run "$LAB_URL/" --rate 20/s --duration 2s --timeout 100ms --threads 1 --slo none --json r.json \
  --log-requests log.jsonl >out.txt 2>&1 || code=$?
accept_invalid_only_for "$code" r.json '^send lateness'
assert_conserved r.json
intended=$(json r.json .summary.counts.intended)
timeouts=$(json r.json .summary.counts.timeouts)
assert_cmp "$(json r.json .summary.counts.ok)" == 0 "nothing answers within 100 ms"
assert_cmp "$timeouts" == "$intended" "every request timed out"
# Each timed-out attempt closes its connection, so every request opens one, which connects at once on loopback.
connects=$(json r.json '.summary.phases.new_connection.connect_ms.count // 0')
assert_cmp "$connects" ">=" $((timeouts * 9 / 10)) "the connect phase of the timed-out requests is kept"
assert_cmp "$connects" "<=" "$timeouts" "at most one connect per request"
assert_cmp "$(json r.json '.summary.phases.new_connection.ttfb_ms.count // 0')" == 0 "no first byte arrived"
jq -e '.summary.phases.dns_ms | type == "number" and . >= 0' r.json >/dev/null || fail "DNS is reported"
grep -q '^  new connection (' out.txt || fail "the summary shows the new-connection phases: $(cat out.txt)"
with_connect=$(jq -s 'map(select(.warmup == false and .outcome == "timeout" and .new_connection == true and (.connect_ms | type) == "number" and .ttfb_ms == null)) | length' log.jsonl)
assert_cmp "$with_connect" == "$connects" "the log's timeout lines carry the connect phase they reached"
pass "timed-out requests keep the phases they reached ($connects connects of $timeouts timeouts)"
