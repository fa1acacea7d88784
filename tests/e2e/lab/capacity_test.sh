#!/usr/bin/env bash
# Capacity is workers / service time under wrk: reached (loosely, the machine is shared) and never exceeded.
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
require_tools curl jq wrk timeout

start_lab --workers 4 --service 1ms
rate=$(wrk_rate -t1 -c32 -d2s)
check "$rate <= 4000 * 1.05" "4 workers x 1 ms: ${rate}/s does not exceed capacity 4000/s"
check "$rate >= 4000 * 0.6" "4 workers x 1 ms: ${rate}/s reaches most of capacity 4000/s"
completed=$(lab_query .completed)
requests=$(awk '/requests in/ {print $1}' "$E2E_TMP/wrk.out")
check "$completed >= $requests" "the model completed ${completed} >= wrk's ${requests} responses"
[[ $(lab_query .busy_workers) -le 4 ]] || fail "more busy workers than configured"
stop_lab

# --burn: the service time is real CPU on the lab's one thread, so capacity is 1/S whatever --workers says.
start_lab --workers 4 --service 2ms --burn
rate=$(wrk_rate -t1 -c8 -d1s)
check "$rate <= 500 * 1.05" "--burn 4 workers x 2 ms: ${rate}/s does not exceed one core's 500/s"
stop_lab
