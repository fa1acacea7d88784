# --metrics-listen against a real Prometheus (Debian's, started here on a loopback port, scraping every second,
# native histograms enabled, a temporary storage directory): promtool accepts the text format; after a run with
# --metrics-linger, Prometheus's counters equal the results file's, and its histogram_quantile(0.99) over the
# native histogram (protobuf exposition) agrees with openloop's own p99 within the schema's bucket width. Skipped (77) only when prometheus is absent.
source "$OPENLOOP_E2E_LIB"
PROMETHEUS=${OPENLOOP_PROMETHEUS:-prometheus}
PROMTOOL=${OPENLOOP_PROMTOOL:-promtool}
require_tools "$PROMETHEUS" "$PROMTOOL"
cd "$E2E_TMP"

start_lab --workers 50 --service lognormal:5ms,0.5
mport=$(free_port)
start_prometheus openloop="127.0.0.1:$mport"
api=$PROMETHEUS_API

# 3 s (5 s until stop 47): the counters are equal whatever the length, and the two p99s are of the same 600
# samples, the one's native bucket holding the other's value.
"$OPENLOOP" run "$LAB_URL/" --rate 200/s -d 3s --warmup 0s -q --metrics-listen "127.0.0.1:$mport" \
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
# The queries' instant: the last one, from 6 s to 0.5 s before openloop exited (inside --metrics-linger, 4 s, after
# the final totals were published), at which Prometheus holds a fresh sample. Not a fixed 1.5 s before the exit: a
# scrape that fails on a loaded host (its timeout is the 1-s interval) marks every series stale until the next
# one, and an instant query then sees nothing ("Prometheus has none": this test, stop 48, at load 1-2.5; a stale
# series also has no last_over_time for native histograms in 2.42). If no scrape during the linger succeeded, the
# counters below are not the final ones and the test fails on them.
exited=$(date +%s.%N)
during=$(curl -sf --max-time 5 --data-urlencode "query=openloop_requests_intended_total" \
  --data-urlencode "start=$(awk -v t="$exited" 'BEGIN { printf "%.3f", t - 6 }')" \
  --data-urlencode "end=$(awk -v t="$exited" 'BEGIN { printf "%.3f", t - 0.5 }')" --data-urlencode "step=0.1" \
  "$api/api/v1/query_range" | jq -r '.data.result[0].values[-1][0] // "none"')
[[ $during != none ]] || fail "Prometheus holds no sample of the run's last 6 s: $(tail -5 "$E2E_TMP/prom.log")"

# query EXPR: its value at $during.
query() {
  curl -sf --max-time 5 --data-urlencode "query=$1" --data-urlencode "time=$during" "$api/api/v1/query" |
    jq -r '.data.result[0].value[1] // "none"'
}
for counter in intended sent completed ok timeouts dropped; do
  got=$(query "openloop_requests_${counter}_total")
  want=$(json r.json ".summary.counts.$counter")
  [[ $got == "$want" ]] || fail "$counter: Prometheus has $got, the results file $want"
done
pass "Prometheus's counters equal the results file's"

# Prometheus negotiated the protobuf exposition, so it stored the latencies as native histograms (schema 8:
# buckets 2^(1/256) apart, 0.27 %). Its quantile interpolates inside the native bucket that holds the 99th
# percentile, and openloop's own p99 (HdrHistogram, 0.1 %) moves a count by at most one native bucket: the two
# agree within two native buckets (0.55 %).
prom_p99=$(query 'histogram_quantile(0.99, openloop_response_time_seconds)')
own_p99=$(json r.json .summary.response_time_ms.p99)
[[ $prom_p99 != none ]] || fail "no native histogram in Prometheus: $(curl -s "$api/api/v1/label/__name__/values")"
ratio=$(awk -v a="$prom_p99" -v b="$own_p99" 'BEGIN { printf "%.6f", a * 1000 / b }')
assert_cmp "$ratio" ">=" "$(awk 'BEGIN { printf "%.6f", 2 ^ (-2 / 256) }')" "Prometheus p99 $prom_p99 s vs openloop's $own_p99 ms"
assert_cmp "$ratio" "<=" "$(awk 'BEGIN { printf "%.6f", 2 ^ (2 / 256) }')" "Prometheus p99 $prom_p99 s vs openloop's $own_p99 ms"
pass "native histogram_quantile(0.99) $prom_p99 s within two schema-8 buckets of openloop's p99 $own_p99 ms"
