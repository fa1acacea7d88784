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
  --rate 500/s --duration 4s --threads 1 --timeout 2s --slo none --json "$r" \
  --start-at "$(date -u -d "@${start%.*}" +%Y-%m-%dT%H:%M:%SZ)" >"$E2E_TMP/stall.txt" 2>&1 &
run_pid=$!
E2E_PIDS+=("$run_pid")
freeze_periodically "$GRPC_PID" "$(awk -v s="$start" -v now="$(date +%s.%N)" 'BEGIN { d = s + 0.5 - now; printf "%.3f", (d > 0 ? d : 0) }')" \
  0.5 2 2
code=0
wait "$run_pid" || code=$?
wait "$FREEZER"
accept_invalid_only_for "$code" "$r" '^send lateness'
assert_conserved "$r"
assert_cmp "$(json "$r" .summary.counts.intended)" == 2000 "every intended call counted (500/s for 4 s)"
assert_cmp "$(json "$r" .summary.counts.ok)" == 2000 "every call OK: a freeze delays, it does not fail"
p99=$(json "$r" .summary.response_time_ms.p99)
# Two freezes of 500 ms in 4 s: a quarter of the calls wait, uniformly up to 500 ms, so p99 ≈ 480 ms. The bounds
# leave room for a loaded host (the server draining 250 calls after each freeze adds a little; a late freezer
# lengthens a freeze).
assert_cmp "$p99" ">=" 350 "p99 shows the freezes"
assert_cmp "$p99" "<=" 700 "p99 is the freeze, not more"
assert_cmp "$(json "$r" .summary.response_time_ms.max)" ">=" 400 "max shows a whole freeze"
stop_grpc_server
assert_cmp "$GRPC_CALLS" == "$(json "$r" .summary.counts.completed)" "the server's own count equals openloop's completed"
pass "grpcio server frozen 500 ms every 2 s at 500/s: p99 $p99 ms, max $(json "$r" .summary.response_time_ms.max) ms"
