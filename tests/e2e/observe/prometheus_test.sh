#!/usr/bin/env bash
# prometheus: against Debian's prometheus-node-exporter on a loopback port of its own: a gauge kept, a counter
# as a rate, a summary's quantile as a gauge, one value per interval; only the families named after '#'.
# e2e: light (scraped node-exporter values, one per interval, at 200/s)
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
require_tools jq timeout prometheus-node-exporter
start_lab --workers 4 --service 1ms
port=$(free_port)
prometheus-node-exporter --web.listen-address="127.0.0.1:$port" --collector.disable-defaults \
  --collector.loadavg --collector.stat >"$E2E_TMP/exporter.log" 2>&1 &
E2E_PIDS+=("$!")
wait_port "$port"
cd "$E2E_TMP"
spec="prometheus:http://127.0.0.1:$port/metrics#node_load1,process_cpu_seconds_total,go_gc_duration_seconds,node_context_switches_total"
code=0
timeout 30 "$OPENLOOP" run "$LAB_URL/" --rate 200/s --duration 4s -t 1 -q --max-lateness 100ms --observe "$spec" --json r.json \
  --no-html >out.txt 2>err.txt || code=$?
[[ $code == 0 ]] || fail "exit $code: $(cat err.txt)"
[[ $(jq '[.warnings[] | select(startswith("--observe prometheus"))] | length' r.json) == 0 ]] ||
  fail "no scrape failed: $(jq -c .warnings r.json)"
sig() { jq -r --arg s "$spec" --arg n "$1" '.summary.observed.signals[] | select(.source == $s and .name == $n) | '"$2" r.json; }
[[ $(sig node_load1 .unit) == "" ]] || fail "node_load1 is a gauge without a unit"
load=$(sig node_load1 .mean)
assert_cmp "$load" ">=" 0 "node_load1 kept as a gauge"
[[ $(sig node_context_switches_total .unit) == "/s" ]] || fail "a counter becomes a rate"
cs=$(sig node_context_switches_total .mean)
assert_cmp "$cs" ">" 10 "context switches per second, as a rate"
[[ -n $(sig 'go_gc_duration_seconds{quantile="0.5"}' .name) ]] || fail "a summary's quantile as a gauge: $(jq -c '[.summary.observed.signals[].name]' r.json)"
[[ $(jq -r --arg s "$spec" '[.summary.observed.signals[] | select(.source == $s and (.name | startswith("node_cpu")))] | length' r.json) == 0 ]] ||
  fail "only the families named after #"
n=$(jq --arg s "$spec" '[.intervals[] | select(.observed[$s].node_context_switches_total != null)] | length' r.json)
assert_cmp "$n" ">=" 3 "a rate in (nearly) every one of the 4 intervals"
pass "node exporter: gauge $load, counter ${cs}/s, summary quantiles; $n of 4 intervals"
