# --metrics-listen on a plan file of two scenarios: every series carries its scenario's name (one family, a series
# per scenario; per-request histograms labelled with the request's name, no two series alike), and once the run has ended (--metrics-linger keeps the endpoint up) each scenario's counters equal
# its results in the results file and its verdict is the run's; `promtool check metrics` accepts the text when
# promtool is installed.
# e2e: parallel-safe (scraped counters equal the results file's)
source "$OPENLOOP_E2E_LIB"
start_lab --workers 8 --service 1ms
cd "$E2E_TMP"
cat >plan.yaml <<PLAN
target: $LAB_URL
requests:
  get_item: GET /item/1
  search: GET /search?q=1
scenarios:
  browse:
    model: open
    rate: 100/s
    duration: 2s
    mix: {get_item: 3, search: 1}
  buyers:
    model: open
    rate: 50/s
    duration: 2s
    mix: {get_item: 1}
PLAN
port=$(free_port)
"$OPENLOOP" run plan.yaml --threads 1 -q --json r.json --metrics-listen "127.0.0.1:$port" --metrics-linger 20s \
  >run.txt 2>&1 &
run_pid=$!
E2E_PIDS+=("$run_pid")
# The results file is written before the linger starts: wait (≤ 15 s) for it, then scrape the final state.
for _ in $(seq 150); do
  [[ -s r.json ]] && break
  sleep 0.1
done
[[ -s r.json ]] || fail "no results within 15 s: $(cat run.txt)"
curl -sf --max-time 2 "http://127.0.0.1:$port/metrics" >m.txt || fail "no scrape during the linger"
kill -TERM "$run_pid"
code=0
wait "$run_pid" || code=$?
accept_invalid_only_for "$code" r.json '^([a-z]+: )?send lateness'

[[ $(grep -c '^# TYPE openloop_requests_intended_total counter$' m.txt) == 1 ]] || fail "one family, not one per scenario"
for scenario in browse buyers; do
  want=$(json r.json ".scenarios[] | select(.name == \"$scenario\") | .summary.counts.intended")
  got=$(awk -v s="scenario=\"$scenario\"" '/^openloop_requests_intended_total\{/ && index($0, s) {print $2}' m.txt)
  [[ $got == "$want" ]] || fail "$scenario: intended $got scraped, $want in r.json: $(grep intended_total m.txt)"
  valid=$(json r.json ".scenarios[] | select(.name == \"$scenario\") | .verdict.valid")
  state=$([[ $valid == true ]] && echo valid || echo invalid)
  grep -q "^openloop_verdict{.*scenario=\"$scenario\".*state=\"$state\"} 1$" m.txt ||
    fail "$scenario: verdict $state not 1: $(grep openloop_verdict m.txt)"
  grep -q "^openloop_response_time_seconds_count{.*scenario=\"$scenario\",request=\"get_item\"}" m.txt ||
    fail "$scenario: no per-request histogram"
done
dup=$(grep -v '^#' m.txt | sed 's/ [^ ]*$//' | sort | uniq -d | head -3)
[[ -z $dup ]] || fail "series with the same name and labels (Prometheus rejects them): $dup"
pass "a plan file: one series per scenario and request, counters and verdicts as in r.json"

if command -v promtool >/dev/null; then
  promtool check metrics <m.txt >lint.txt 2>&1 || fail "promtool: $(cat lint.txt)"
  pass "promtool check metrics accepts the text"
fi
