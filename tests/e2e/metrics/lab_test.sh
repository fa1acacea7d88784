# openloop lab --metrics-listen: the lab's own view for Prometheus. After a run that overloads a lab with
# --shed-at (429s) and a deadline header (504s), a scrape's counters equal GET /_lab/stats read just before it
# (the lab is idle then: nothing changes between the two but the control requests), the gauges are there (queue
# depth, busy workers, workers), promtool accepts the text, and a bad address exits 2.
# e2e: parallel-safe (the lab's counters as scraped, the overload forced at 4x capacity)
source "$OPENLOOP_E2E_LIB"
require_tools jq curl
cd "$E2E_TMP"
mport=$(free_port)
start_lab --workers 2 --service 20ms --shed-at 10 --deadline-header X-Deadline --metrics-listen "127.0.0.1:$mport"
grep -q "^lab metrics at http://127.0.0.1:$mport/metrics$" "$E2E_TMP/lab.out" ||
  fail "no metrics line: $(cat "$E2E_TMP/lab.out")"
url=http://127.0.0.1:$mport/metrics
curl -sf --max-time 2 "$url" >idle.txt || fail "no scrape before any load"
grep -q '^openloop_lab_up{lab="127.0.0.1:'"$PORT"'"} 1$' idle.txt || fail "not up: $(head -5 idle.txt)"
grep -q '^openloop_lab_workers{.*} 2$' idle.txt || fail "workers: $(grep lab_workers idle.txt)"

# 400/s against 100/s of capacity: a queue builds to --shed-at (a 50-ms deadline keeps about 20 queued, expired
# at dequeue), the rest is shed.
"$OPENLOOP" run "$LAB_URL/" --rate 400/s -d 2s --warmup 0s --threads 1 -q --slo none --timeout 2s \
  -H 'X-Deadline: 50ms' --json r.json >run.txt 2>&1 || true
[[ -s r.json ]] || fail "the run wrote no results: $(cat run.txt)"
curl -sS --max-time 5 "$LAB_URL/_lab/stats" >stats.json
curl -sf --max-time 2 "$url" >m.txt || fail "no scrape after the run"
for field in arrivals ok errors shed rejected expired cancelled; do
  want=$(jq ".$field" stats.json)
  got=$(awk -v n="openloop_lab_${field}_total{" 'index($0, n) == 1 {print $2}' m.txt)
  [[ $got == "$want" ]] || fail "$field: $got scraped, $want in /_lab/stats"
done
assert_cmp "$(jq .shed stats.json)" ">" 0 "the overload shed requests"
assert_cmp "$(jq .expired stats.json)" ">" 0 "the deadline expired requests"
# The scrape's own GET /_lab/stats is one more control request than stats.json saw.
assert_cmp "$(awk 'index($0, "openloop_lab_control_requests_total{") == 1 {print $2}' m.txt)" "==" \
  "$(($(jq .server.control_requests stats.json) + 1))" "control requests: stats.json's plus the scrape's own"
for gauge in queue_depth busy_workers connections_open; do
  grep -q "^openloop_lab_${gauge}{" m.txt || fail "no $gauge gauge"
done
if command -v promtool >/dev/null; then
  promtool check metrics <m.txt >lint.txt 2>&1 || fail "promtool: $(cat lint.txt)"
fi
pass "lab: shed $(jq .shed stats.json), expired $(jq .expired stats.json), every counter as /_lab/stats"
stop_lab

code=0
timeout 10 "$OPENLOOP" lab --listen 127.0.0.1:0 --metrics-listen nonsense >bad.txt 2>&1 || code=$?
[[ $code == 2 ]] && grep -q -- '--metrics-listen' bad.txt || fail "bad address: exit $code: $(cat bad.txt)"
pass "bad address: exit 2 naming --metrics-listen"
