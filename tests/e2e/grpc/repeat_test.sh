#!/usr/bin/env bash
# `openloop run grpc://... --repeat N`: the call prepared once (the schema asked of the lab's reflection once), each
# repeat a run of its own judged by the gRPC statuses, the totals adding them; the lab counted every call of every
# repeat. --targets with a gRPC target is refused saying why and what to do instead, before anything is sent.
# e2e: parallel-safe (counts of calls at 100/s against a lab of 200 workers; INVALID only for the generator's lateness)
source "$OPENLOOP_E2E_LIB"
source "$(dirname "$0")/grpc_server.sh"  # lab_stats
require_tools jq curl

start_lab --grpc --workers 200 --service 1ms
cd "$E2E_TMP"
code=0
"$OPENLOOP" run "grpc://127.0.0.1:$PORT" --call openloop.lab.v1.Lab/Call --data '{"key": "k1"}' --repeat 2 \
  --rate 100/s --duration 1s --threads 1 --timeout 2s --json r.json >out.txt 2>&1 || code=$?
accept_invalid_only_for "$code" r.json '^repeat [12]: (send lateness|arrival process: )'
assert_conserved r.json
[[ $(json r.json .plan.grpc.call) == openloop.lab.v1.Lab/Call ]] || fail "the totals' call: $(json r.json .plan.grpc.call)"
[[ $(json r.json .plan.target) == "grpc://127.0.0.1:$PORT" ]] || fail "the totals' target: $(json r.json .plan.target)"
assert_cmp "$(json r.json '.repeats | length')" == 2 "two repeats"
for k in 0 1; do
  assert_conserved r.json "[.repeats[$k].summary.counts]"
  assert_cmp "$(json r.json ".repeats[$k].summary.counts.grpc_statuses.OK")" == 100 "repeat $((k + 1)): 100 calls OK"
  [[ $(json r.json ".repeats[$k].plan.grpc.call") == openloop.lab.v1.Lab/Call ]] || fail "repeat $((k + 1))'s call"
done
assert_cmp "$(json r.json .summary.counts.grpc_statuses.OK)" == 200 "the totals add the repeats' statuses"
assert_cmp "$(lab_stats .grpc.calls)" == 200 "the lab counted every call of both repeats"
assert_cmp "$(lab_stats .grpc.reflection_streams)" == 1 "the schema was asked of the lab once, not per repeat"
grep -q '^gRPC statuses   OK 200' out.txt || fail "the summary's gRPC statuses: $(grep 'gRPC statuses' out.txt)"
pass "--repeat 2 over gRPC: 2 x 100 calls OK, one reflection stream"

# --targets: a targets file lists HTTP requests to one host; a gRPC run makes one --call to one server.
code=0
printf 'POST http://127.0.0.1:%s/openloop.lab.v1.Lab/Call\n' "$PORT" >targets.txt
"$OPENLOOP" run "grpc://127.0.0.1:$PORT" --targets targets.txt --call openloop.lab.v1.Lab/Call --rate 10/s -d 1s \
  >bad.txt 2>&1 || code=$?
[[ $code == 2 ]] && grep -q -- '--targets: not with a grpc:// target' bad.txt && grep -q 'openloop merge' bad.txt ||
  fail "--targets with grpc://: exit $code: $(cat bad.txt)"
assert_cmp "$(lab_stats .grpc.calls)" == 200 "the refused run sent nothing"
assert_cmp "$(lab_stats .grpc.reflection_streams)" == 1 "the refused run asked nothing"
pass "--targets with a grpc:// target: exit 2 naming what to do instead"
