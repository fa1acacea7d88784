# --metrics-listen against a real Prometheus (Debian's, started here on a loopback port, scraping every second,
# native histograms enabled, a temporary storage directory): promtool accepts the text format; after a run with
# --metrics-linger, Prometheus's counters equal the results file's, and its histogram_quantile(0.99) over the
# classic buckets lies in the same bucket as openloop's own p99. Skipped (77) only when prometheus is absent.
source "$OPENLOOP_E2E_LIB"
PROMETHEUS=${OPENLOOP_PROMETHEUS:-prometheus}
PROMTOOL=${OPENLOOP_PROMTOOL:-promtool}
require_tools "$PROMETHEUS" "$PROMTOOL"
cd "$E2E_TMP"

start_lab --workers 50 --service lognormal:5ms,0.5
mport=$(free_port)
pport=$(free_port)
cat >prom.yml <<YML
global: {scrape_interval: 1s, evaluation_interval: 1s}
scrape_configs:
  - job_name: openloop
    static_configs: [{targets: ["127.0.0.1:$mport"]}]
YML
"$PROMETHEUS" --config.file=prom.yml --storage.tsdb.path="$E2E_TMP/tsdb" --web.listen-address="127.0.0.1:$pport" \
  --enable-feature=native-histograms >prom.log 2>&1 &
E2E_PIDS+=("$!")
api=http://127.0.0.1:$pport
for _ in $(seq 200); do
  curl -sf --max-time 1 "$api/-/ready" >/dev/null 2>&1 && break
  sleep 0.1
done
curl -sf --max-time 1 "$api/-/ready" >/dev/null || fail "prometheus not ready within 20 s: $(tail -5 prom.log)"

"$OPENLOOP" run "$LAB_URL/" --rate 200/s -d 5s --warmup 0s -q --metrics-listen "127.0.0.1:$mport" \
  --metrics-linger 4s --json r.json >run.txt 2>&1 &
run_pid=$!
E2E_PIDS+=("$run_pid")
for _ in $(seq 100); do
  if curl -sf --max-time 2 "http://127.0.0.1:$mport/metrics" >m.txt 2>/dev/null &&
    grep -q '^openloop_progress_reports{.*} [1-9]' m.txt; then break; fi
  sleep 0.1
done
"$PROMTOOL" check metrics <m.txt >lint.txt 2>&1 || fail "promtool check metrics: $(cat lint.txt)"
pass "promtool check metrics accepts the text format"
code=0
wait "$run_pid" || code=$?
accept_invalid_only_for "$code" r.json '^send lateness'

# The last sample of a series over the last minute (the target is gone now: an instant query would see its
# staleness marker).
query() {
  curl -sf --max-time 5 --data-urlencode "query=$1" "$api/api/v1/query" | jq -r '.data.result[0].value[1] // "none"'
}
for counter in intended sent completed ok timeouts dropped; do
  got=$(query "last_over_time(openloop_requests_${counter}_total[1m])")
  want=$(json r.json ".summary.counts.$counter")
  [[ $got == "$want" ]] || fail "$counter: Prometheus has $got, the results file $want"
done
pass "Prometheus's counters equal the results file's"

prom_p99=$(query 'histogram_quantile(0.99, last_over_time(openloop_response_time_seconds_bucket[1m]))')
own_p99=$(json r.json .summary.response_time_ms.p99)
# The classic bucket bounds (seconds) around openloop's own p99: Prometheus interpolates inside that bucket.
read -r lo hi < <(awk -v v="$own_p99" 'BEGIN {
  n = split("0 0.0001 0.0002 0.0005 0.001 0.002 0.005 0.01 0.02 0.05 0.1 0.2 0.5 1 2 5 10", b, " ")
  s = v / 1000; for (i = 2; i <= n; i++) if (s <= b[i]) { print b[i-1], b[i]; exit } }')
assert_cmp "$prom_p99" ">=" "$lo" "Prometheus p99 ($prom_p99 s) in openloop's p99 bucket ($own_p99 ms)"
assert_cmp "$prom_p99" "<=" "$hi" "Prometheus p99 ($prom_p99 s) in openloop's p99 bucket ($own_p99 ms)"
pass "histogram_quantile(0.99) $prom_p99 s within the bucket ($lo, $hi] of openloop's p99 $own_p99 ms"
