# --log-requests with a scenario file: one log line per request of every scenario (their requests by name, the
# scenarios' workers sharing one log), the counts in the summary, standard output for the log with the summary on
# standard error; and the file's one DNS resolution is reported in its phases.
# e2e: parallel-safe (one log line per request)
source "$OPENLOOP_E2E_LIB"
start_lab --workers 4 --service 1ms
cd "$E2E_TMP"
cat >plan.yaml <<PLAN
target: $LAB_URL
requests:
  home: GET /
  item: GET /item/{{uniform(1,100)}}
scenarios:
  browse: {model: open, rate: 60/s, duration: 2s, request: home}
  buy: {model: open, rate: 40/s, duration: 2s, start: 500ms, request: item}
PLAN
code=0
"$OPENLOOP" run plan.yaml --threads 2 --json r.json --log-requests log.jsonl >out.txt 2>err.txt || code=$?
accept_invalid_only_for "$code" r.json '^([a-z-]+: )?send lateness'
assert_conserved r.json
intended=$(json r.json .summary.counts.intended)
assert_cmp "$intended" == 200 "60/s and 40/s for 2 s"
assert_cmp "$(wc -l <log.jsonl)" == "$intended" "one line per request of both scenarios"
assert_cmp "$(json r.json .summary.request_log.written)" == "$intended" "written count"
assert_cmp "$(json r.json .summary.request_log.dropped)" == 0 "nothing dropped at 100/s"
jq -e . log.jsonl >/dev/null || fail "every log line is JSON"
assert_cmp "$(jq -s 'map(select(.request == "home")) | length' log.jsonl)" == \
  "$(json r.json '.summary.by_request.home.counts.intended')" "home's lines = home's requests"
assert_cmp "$(jq -s 'map(select(.request == "item")) | length' log.jsonl)" == \
  "$(json r.json '.summary.by_request.item.counts.intended')" "item's lines = item's requests"
assert_cmp "$(jq -s 'map(select(.outcome == "ok")) | length' log.jsonl)" == "$(json r.json .summary.counts.ok)" \
  "ok lines = ok count"
grep -q "request log  $intended lines written   0 dropped" out.txt || fail "summary names the log counts: $(cat out.txt)"
jq -e '.summary.phases.dns_ms | type == "number" and . >= 0' r.json >/dev/null || fail "the file's DNS time is reported"
jq -e '.scenarios[0].summary.phases.dns_ms | type == "number"' r.json >/dev/null || fail "each scenario's DNS time"
grep -q '^phases (p50 / p99)   dns ' out.txt || fail "summary shows the DNS time: $(cat out.txt)"
pass "scenario file: one log line per request of every scenario; DNS timed"

code=0
"$OPENLOOP" run plan.yaml --threads 2 -q --json r2.json --log-requests - --log-format csv >log.csv 2>err.txt || code=$?
accept_invalid_only_for "$code" r2.json '^([a-z-]+: )?send lateness'
head -1 log.csv | grep -q '^intended_s,sent_s,response_ms,' || fail "csv header: $(head -1 log.csv)"
assert_cmp $(($(wc -l <log.csv) - 1)) == "$(json r2.json .summary.counts.intended)" "csv rows = requests"
grep -q '=== all scenarios together ===' err.txt || fail "the summary goes to standard error: $(cat err.txt)"
grep -q 'verdict' log.csv && fail "no summary in the log stream"
pass "scenario file: the log on standard output, the summary on standard error"
