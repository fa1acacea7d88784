#!/usr/bin/env bash
# A real HAProxy (maxconn 4 towards a lab of 16 workers × 10 ms: the proxy, not the lab, limits to ~400/s) ramped
# with --observe on HAProxy's own Prometheus exporter (127.0.0.1): the step above capacity names a HAProxy series
# by family{labels} with its role, the backend's queue, and not its sessions (in flight: they rise with any load).
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
require_tools jq timeout haproxy
start_lab --workers 16 --service 10ms
front=$(free_port)
metrics=$(free_port)
cat >"$E2E_TMP/haproxy.cfg" <<CFG
global
  maxconn 2000
defaults
  mode http
  timeout connect 1s
  timeout client 10s
  timeout server 10s
  timeout queue 10s
frontend fe
  bind 127.0.0.1:$front
  default_backend be
frontend exporter
  bind 127.0.0.1:$metrics
  http-request use-service prometheus-exporter if { path /metrics }
backend be
  server lab 127.0.0.1:$PORT maxconn 4
CFG
haproxy -f "$E2E_TMP/haproxy.cfg" -db >"$E2E_TMP/haproxy.log" 2>&1 &
E2E_PIDS+=("$!")
wait_port "$front"
wait_port "$metrics"
cd "$E2E_TMP"
families=haproxy_backend_current_queue,haproxy_backend_current_sessions,haproxy_backend_max_queue,haproxy_frontend_current_sessions,haproxy_backend_http_responses_total
spec="prometheus:http://127.0.0.1:$metrics/metrics#$families"
code=0
# Steps of 2 s (3 s until stop 47): at the proxy's ~400/s its backlog grows within the step (in flight rose by 115
# over a 2-s step at 400/s, by 210 over a 3-s one), while the steps below hold it near 0.
timeout 100 "$OPENLOOP" ramp "http://127.0.0.1:$front/" --from 200/s --step-add 100/s --to 700/s --hold 2s \
  --warmup 1s --timeout 5s --slo 'p99<=100ms' --stop-at slo -t 1 --max-lateness 50ms --observe "$spec" \
  --json r.json >out.txt 2>err.txt || code=$?
[[ $code == 0 || $code == 1 ]] || fail "exit $code: $(cat err.txt)"
[[ -s r.json ]] || fail "no ramp file: $(cat out.txt err.txt)"
echo "--- ramp"; cat out.txt
role() { jq -r --arg n "$1" '.observed.signals[] | select(.name == $n) | .role' r.json; }
[[ $(role 'haproxy_backend_current_queue{proxy="be"}') == saturation ]] ||
  fail "the backend's queue read as a queue: $(jq -c '[.observed.signals[] | {name, role}]' r.json)"
[[ $(role 'haproxy_backend_current_sessions{proxy="be"}') == other ]] || fail "sessions are in flight, not judged"
knee=$(json r.json .observed.knee_step)
rate=$(json r.json ".steps[$knee - 1].offered_rps")
assert_cmp "$rate" ">=" 300 "the step named is above the proxy's ~400/s, or at it"
named=$(jq -r '.observed.saturated_at_knee[] | select(.name | startswith("haproxy_")) | .name' r.json)
[[ -n $named ]] || fail "a HAProxy series named at the knee: $(jq -r .observed.knee r.json)"
sentence=$(json r.json .observed.knee)
grep -qF 'haproxy_backend_current_queue{proxy="be"} (queue) rose' <<<"$sentence" ||
  fail "the sentence names the backend queue with its labels and role: $sentence"
[[ $sentence != *current_sessions* ]] || fail "sessions named: $sentence"
pass "at $rate/s: $sentence"
