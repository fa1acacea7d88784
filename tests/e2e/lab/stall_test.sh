#!/usr/bin/env bash
# Stalls: a request arriving during --stall-at waits for the stall to end, while /_lab/stats stays observable
# (and says frozen). A periodic --stall shows up in wrk's max latency.
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
require_tools curl jq wrk timeout

start_lab --workers 1 --service 1ms --stall-at 1s+1s
[[ $(http_status "$LAB_URL/") == 200 ]] || fail "not serving before the stall"
while awk -v t="$(since_lab_start)" 'BEGIN { exit !(t < 1.25) }'; do sleep 0.05; done
t=$(curl -s -o /dev/null --max-time 10 -w '%{time_total}' "$LAB_URL/stalled")
check "$t >= 0.4" "a request sent 0.25 s into a 1 s stall took ${t} s"
stop_lab

start_lab --workers 1 --service 1ms --stall-at 500ms+2s
while awk -v t="$(since_lab_start)" 'BEGIN { exit !(t < 0.8) }'; do sleep 0.05; done
t=$(curl -s -o "$E2E_TMP/stats.json" --max-time 5 -w '%{time_total}' "$LAB_URL/_lab/stats")
[[ $(jq -r .frozen "$E2E_TMP/stats.json") == true ]] || fail "stats during a stall should say frozen: $(cat "$E2E_TMP/stats.json")"
check "$t < 0.3" "stats answered in ${t} s during a stall, frozen=true"
stop_lab

start_lab --workers 2 --service 1ms --stall 300ms/1s
# 2 s (3 s until stop 47): any 2 s of the 1-s cycle hold a whole 300-ms stall.
wrk_rate -t1 -c4 -d2s --latency >/dev/null
max=$(awk '/Latency/ && !/Distribution/ {print $4; exit}' "$E2E_TMP/wrk.out")
max_ms=$(awk -v m="$max" 'BEGIN { v = m + 0; if (m ~ /us$/) v /= 1000; else if (m ~ /ms$/) v = v; else if (m ~ /s$/) v *= 1000; print v }')
check "$max_ms >= 200" "wrk's max latency ${max} shows the 300 ms stall"
stop_lab
