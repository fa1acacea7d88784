#!/usr/bin/env bash
# The knee over gRPC: `openloop ramp grpc://...` against `openloop lab --grpc` of limited capacity (3 workers x 20 ms:
# 150/s) that sheds past a short queue (RESOURCE_EXHAUSTED). The step at 100/s passes goodput>=99%; the one at 200/s
# is a quarter shed, and a shed call is a completed call that is not goodput, so the ramp stops there (--stop-at
# slo) with capacity 100/s bracketed by 200/s. The schema comes from the lab's reflection once for the whole ramp,
# and the lab's own count of calls equals the ramp's completed. Two steps of 1 s warm-up + 2 s.
source "$OPENLOOP_E2E_LIB"
source "$(dirname "$0")/grpc_server.sh"  # lab_stats
require_tools jq curl

start_lab --grpc --workers 3 --service 20ms --shed-at 10
cd "$E2E_TMP"
code=0
# --max-lateness: a busy machine's late wake-ups (they show in the JSON) would make a step INVALID at 1 ms; the steps
# are judged by goodput within 2 s, which sends a quarter of a second late do not change (a host so loaded that
# openloop's worker waited for a CPU half its time sent 60-80 ms late).
timeout 60 "$OPENLOOP" ramp "grpc://127.0.0.1:$PORT" --call openloop.lab.v1.Lab/Call --data '{"key": "k1"}' \
  --from 100/s --step-add 100/s --to 400/s --hold 2s --warmup 1s --stop-at slo --timeout 2s -t 1 \
  --max-lateness 250ms --json ramp.json >out.txt 2>err.txt || code=$?
cat out.txt
[[ $code == 0 ]] || fail "ramp exit $code: $(cat err.txt)"
r=ramp.json
[[ $(json $r .target) == "grpc://127.0.0.1:$PORT" ]] || fail "the ramp's target: $(json $r .target)"
[[ $(json $r '.runs[0].plan.grpc.call') == openloop.lab.v1.Lab/Call ]] || fail "the run's call: $(json $r '.runs[0].plan.grpc.call')"
assert_cmp "$(json $r .findings.capacity.rps)" == 100 "capacity: the step at 100/s, below the lab's 150/s"
[[ $(json $r .findings.capacity.bounded) == true ]] || fail "capacity bracketed by a failing step"
assert_cmp "$(json $r .findings.capacity.high_rps)" == 200 "the bracket's top: the step at 200/s"
assert_cmp "$(json $r '.steps | length')" == 2 "the ramp stopped at the first failing step"
# The failing step's calls were answered (completed), a quarter of them RESOURCE_EXHAUSTED: not goodput.
counts='.runs[0].summary.counts'
shed=$(json $r "$counts.grpc_statuses.RESOURCE_EXHAUSTED")
assert_cmp "$shed" ">" 50 "the lab shed calls past its capacity (RESOURCE_EXHAUSTED)"
assert_cmp "$(json $r "$counts.grpc_statuses.OK + $shed")" == "$(json $r "$counts.completed")" \
  "every completed call was OK or shed"
assert_cmp "$(json $r "$counts.ok")" == "$(json $r "$counts.grpc_statuses.OK")" "ok counts the OK calls only"
assert_cmp "$(json $r '.steps[1].goodput_rps')" "<" 170 "the failing step's goodput is the lab's capacity, not its throughput"
assert_conserved $r '[.runs[0].summary.counts, .runs[0].intervals[].counts]'
assert_cmp "$(lab_stats .grpc.reflection_streams)" == 1 "the schema was asked of the lab once, not per step"
assert_cmp "$(lab_stats .grpc.calls)" == "$(json $r "$counts.completed")" "the lab counted every completed call"
assert_cmp "$(lab_stats .shed)" == "$shed" "the lab's shed count is the ramp's RESOURCE_EXHAUSTED count"
pass "ramp over gRPC: capacity $(json $r .findings.capacity.rps)/s below 200/s, $shed calls shed (RESOURCE_EXHAUSTED)"

# --simulate answers HTTP statuses: refused with a gRPC target, before anything is sent.
code=0
"$OPENLOOP" ramp "grpc://127.0.0.1:$PORT" --call openloop.lab.v1.Lab/Call --from 100/s --simulate '--workers 1' \
  >bad.txt 2>&1 || code=$?
[[ $code == 2 ]] && grep -q 'lab --grpc' bad.txt || fail "ramp --simulate with grpc://: exit $code: $(cat bad.txt)"
assert_cmp "$(lab_stats .grpc.reflection_streams)" == 1 "the refused ramp asked nothing of the lab"
pass "ramp --simulate with a grpc:// target: exit 2"
