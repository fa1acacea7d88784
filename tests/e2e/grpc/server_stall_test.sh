#!/usr/bin/env bash
# The stall experiment against a real gRPC server: the Python grpcio server (server.py) frozen by SIGSTOP 500 ms
# every 2 s while openloop calls it at 500/s for 4 s. The calls due during a freeze wait for its end, counted from
# their intended times, so p99 is near the freeze (the seed's open-loop row: 494 ms) and every call still completes
# OK; the server's own count of calls equals openloop's completed. The run is anchored with --start-at and the
# freezes timed from that instant (0.5-1.0 s and 2.5-3.0 s into the run), so both fall inside it however long the
# schema takes to load on a loaded host. tests/e2e/grpc/lab_stall_test.sh is the same experiment with the lab's own
# stall; tests/e2e/http2/nginx_stall_test.sh with nginx.
source "$OPENLOOP_E2E_LIB"
source "$(dirname "$0")/grpc_server.sh"
grpc_require

start_grpc_server
r=$E2E_TMP/stall.json
# Two seconds ahead: the run waits for it (openloop has loaded the schema well before), then sends on its own clock.
start=$(awk -v now="$(date +%s.%N)" 'BEGIN { printf "%.3f", int(now) + 2 }')
"$OPENLOOP" run "$GRPC_URL" --call openloop.test.v1.Bench/Call --protoset "$GRPC_SET" --data '{"key": {"id": "k1"}}' \
  --rate 500/s --duration 4s --threads 1 --timeout 5s --slo none --json "$r" \
  --start-at "$(date -u -d "@${start%.*}" +%Y-%m-%dT%H:%M:%SZ)" >"$E2E_TMP/stall.txt" 2>&1 &
run_pid=$!
E2E_PIDS+=("$run_pid")
# The freezer: SIGSTOP, 500 ms, SIGCONT, twice, 2 s apart, from 0.5 s into the run. Each freeze's actual length
# (bash's own clock, no fork between the signal and the reading) goes to freezes.txt: on a loaded host the
# freezer's own wake-ups come late and a freeze lasts longer than asked, which p99 then shows.
first=$(awk -v s="$start" -v now="$(date +%s.%N)" 'BEGIN { d = s + 0.5 - now; printf "%.3f", (d > 0 ? d : 0) }')
(
  sleep "$first"
  for i in 1 2; do
    kill -STOP "$GRPC_PID"
    t0=$EPOCHREALTIME
    sleep 0.5
    kill -CONT "$GRPC_PID"
    t1=$EPOCHREALTIME
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f\n", 1000 * (b - a) }' >>"$E2E_TMP/freezes.txt"
    ((i == 2)) || sleep 1.5
  done
) &
freezer=$!
E2E_PIDS+=("$freezer")
code=0
wait "$run_pid" || code=$?
wait "$freezer"
accept_invalid_only_for "$code" "$r" '^send lateness'
assert_conserved "$r"
assert_cmp "$(json "$r" .summary.counts.intended)" == 2000 "every intended call counted (500/s for 4 s)"
longest=$(sort -n "$E2E_TMP/freezes.txt" | tail -n1)
[[ $(wc -l <"$E2E_TMP/freezes.txt") == 2 ]] || fail "two freezes expected: $(cat "$E2E_TMP/freezes.txt")"
echo "freezes (ms): $(tr '\n' ' ' <"$E2E_TMP/freezes.txt")"
assert_cmp "$(json "$r" .summary.counts.ok)" == 2000 "every call OK: a freeze delays, it does not fail ($(jq -c \
  '.summary.counts | {completed, timeouts, errors, grpc_statuses}' "$r"))"
p99=$(json "$r" .summary.response_time_ms.p99)
# Two freezes of 500 ms in 4 s: a quarter of the calls wait, uniformly up to 500 ms, so p99 ≈ 480 ms: the calls due
# in the first ~20 ms of a freeze wait nearly all of it. The upper bound is the longest freeze as it happened (a
# late freezer lengthens it), plus room for the server to work through the ~250 calls each freeze piles up, plus
# the generator's own error bar on a loaded host (its send-lateness p99; under 1 ms on a quiet one).
assert_cmp "$p99" ">=" 350 "p99 shows the freezes"
late=$(json "$r" .summary.send_lateness_ms.p99)
assert_cmp "$p99" "<=" "$(awk -v l="$longest" -v s="$late" 'BEGIN { print l + 200 + s }')" \
  "p99 is the longest freeze ($longest ms, + 200 ms + send lateness p99 $late ms), not more"
assert_cmp "$(json "$r" .summary.response_time_ms.max)" ">=" 400 "max shows a whole freeze"
stop_grpc_server
assert_cmp "$GRPC_CALLS" == "$(json "$r" .summary.counts.completed)" "the server's own count equals openloop's completed"
pass "grpcio server frozen 500 ms every 2 s at 500/s (freezes $(tr "\n" " " <"$E2E_TMP/freezes.txt")ms): p99 $p99 ms, max $(json "$r" .summary.response_time_ms.max) ms"
