# probe scraped by a real Prometheus (Debian's, on a loopback port, every second, native histograms on): after a
# short `probe metastable` against the lab with --metrics-listen, Prometheus's per-phase counters (labels repeat,
# phase) equal the sums of the probe file's intervals inside each phase, its verdict gauge is the file's verdict,
# and its native p99 of the baseline phase agrees with the file's p99 of that phase within two native buckets.
# Skipped (77) only when prometheus is absent.
# e2e: light (per-phase counters and the verdict gauge equal to the probe file's at 20-120/s)
source "$OPENLOOP_E2E_LIB"
PROMETHEUS=${OPENLOOP_PROMETHEUS:-prometheus}
require_tools "$PROMETHEUS" jq curl
cd "$E2E_TMP"

# Capacity 40/s (1 worker × 25 ms): the spike (3× capacity) is shed at a queue of 20, then the base load recovers.
start_lab --workers 1 --service 25ms --queue lifo --queue-limit 50 --shed-at 20
mport=$(free_port)
start_prometheus openloop="127.0.0.1:$mport"
api=$PROMETHEUS_API

code=0
"$OPENLOOP" probe metastable "$LAB_URL/" --base 20/s --trigger load:120/s --trigger-for 2s --baseline-for 3s \
  --observe-for 4s --window 3s --warmup 1s --timeout 2s --threads 1 --json p.json -q \
  --metrics-listen "127.0.0.1:$mport" --metrics-linger 4s >p.txt 2>p.err || code=$?
# 1.5 s before the probe exited: inside --metrics-linger, after the final state was scraped at least once.
during=$(awk -v now="$(date +%s.%N)" 'BEGIN { printf "%.3f", now - 1.5 }')
# 0 RECOVERED, 1 METASTABLE, 3 INCONCLUSIVE (a loaded machine): the counters must match whatever the verdict.
[[ $code == 0 || $code == 1 || $code == 3 ]] || fail "probe exit $code: $(cat p.err)"
query() {
  curl -sf --max-time 5 --data-urlencode "query=$1" --data-urlencode "time=$2" "$api/api/v1/query" |
    jq -r '.data.result[0].value[1] // "none"'
}
phases=$(jq '.probe.phases | length' p.json)
assert_cmp "$phases" "==" 3 "phases: baseline, trigger, observe"
for i in $(seq 0 $((phases - 1))); do
  name=$(jq -r ".probe.phases[$i].name" p.json)
  for counter in intended sent ok; do
    want=$(jq --argjson i "$i" --arg f "$counter" '.probe.phases[$i] as $p | [.runs[0].results.intervals[]
      | select(.start_s >= $p.start_s - 1e-6 and .start_s + .length_s <= $p.start_s + $p.length_s + 1e-6)
      | .counts[$f]] | add // 0' p.json)
    got=$(query "openloop_requests_${counter}_total{job=\"openloop\",repeat=\"1\",phase=\"$name\",request=\"\"}" \
      "$during")
    [[ $got == "$want" ]] || fail "$name: $counter: Prometheus has $got, the probe file $want"
  done
done
assert_cmp "$(query 'openloop_requests_sent_total{job="openloop",phase="trigger",request=""}' "$during")" ">" 150 \
  "the trigger phase sent its spike (120/s for 2 s)"
verdict=$(json p.json .verdict)
[[ $(query "openloop_probe_verdict{job=\"openloop\",repeat=\"1\",state=\"$verdict\"}" "$during") == 1 ]] ||
  fail "verdict $verdict is not 1 in Prometheus"
[[ $(query 'openloop_probe_runs_ended{job="openloop"}' "$during") == 1 ]] || fail "runs ended is not 1"
pass "Prometheus's per-phase counters equal the probe file's ($phases phases, verdict $verdict)"

# The baseline phase's p99: Prometheus's histogram_quantile over its native histogram (schema 8, buckets 0.27 %
# wide) against the probe file's own p99 of that phase (HdrHistogram, 0.1 %) from the same samples: within two
# native buckets (0.55 %), as prometheus_test.sh holds for a run.
prom_p99=$(query 'histogram_quantile(0.99, openloop_response_time_seconds{job="openloop",phase="baseline",request=""})' \
  "$during")
own_p99=$(json p.json '.runs[0].phases[0].stats.p99_ms')
[[ $(json p.json '.runs[0].phases[0].name') == baseline ]] || fail "phase 0 is not the baseline"
[[ $prom_p99 != none && $prom_p99 != NaN ]] || fail "no native p99 for the baseline phase: $prom_p99"
ratio=$(awk -v a="$prom_p99" -v b="$own_p99" 'BEGIN { printf "%.6f", a * 1000 / b }')
assert_cmp "$ratio" ">=" "$(awk 'BEGIN { printf "%.6f", 2 ^ (-2 / 256) }')" "baseline p99: Prometheus $prom_p99 s, the file $own_p99 ms"
assert_cmp "$ratio" "<=" "$(awk 'BEGIN { printf "%.6f", 2 ^ (2 / 256) }')" "baseline p99: Prometheus $prom_p99 s, the file $own_p99 ms"
pass "baseline p99: Prometheus $prom_p99 s within two schema-8 buckets of the probe file's $own_p99 ms"
