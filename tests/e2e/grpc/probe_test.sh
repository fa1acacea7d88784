#!/usr/bin/env bash
# The metastable probe over gRPC, with retries: a load spike against `openloop lab --grpc` with a bounded LIFO queue
# that sheds (RESOURCE_EXHAUSTED), the client retrying RESOURCE_EXHAUSTED up to 3 attempts (--retry-on 429, as a
# 429 is for HTTP). During the spike the retries amplify the load and the shed calls are not goodput; back at the
# base load the lab recovers within seconds (exit 0). The schema comes from the lab's reflection once; the lab saw
# every attempt. tests/e2e/probe/recovers_lifo_test.sh is the same probe over HTTP, without retries.
source "$OPENLOOP_E2E_LIB"
source "$(dirname "$0")/grpc_server.sh"  # lab_stats
require_tools jq curl

# Capacity 40/s (1 worker x 25 ms); the spike is 3x capacity; at most 20 wait, the rest are shed at once.
start_lab --grpc --workers 1 --service 25ms --queue lifo --queue-limit 50 --shed-at 20
cd "$E2E_TMP"
code=0
# Once, not through probe_metastable's second attempt: the lab's counts must be this probe's alone.
"$OPENLOOP" probe metastable "grpc://127.0.0.1:$PORT" --call openloop.lab.v1.Lab/Call --data '{"key": "k1"}' --base 20/s \
  --trigger load:120/s --trigger-for 2s --baseline-for 3s --observe-for 6s --window 3s --warmup 1s --timeout 2s \
  --retry-attempts 3 --retry-on 429 --threads 1 --json p.json -q >p.txt 2>p.err || code=$?
cat p.txt
# RECOVERED (exit 0); or, on a machine too loaded for the generator to keep its schedule, INCONCLUSIVE (exit 3)
# for that reason alone: the retries over gRPC are what this checks (the verdict: tests/sim/probe_test.cpp).
if [[ $code == 3 ]] && grep -q "^INCONCLUSIVE: the generator's send lateness could have decided the verdict" p.txt; then
  echo "note: INCONCLUSIVE for the generator's lateness alone ($(uptime))"
else
  [[ $code == 0 ]] || fail "probe exit $code (expected 0, RECOVERED): $(cat p.err)"
  [[ $(json p.json .verdict) == RECOVERED ]] || fail "verdict $(json p.json .verdict)"
fi
[[ $(json p.json .target) == "grpc://127.0.0.1:$PORT" ]] || fail "the probe's target: $(json p.json .target)"
trigger='.runs[0].phases[1].stats'
assert_cmp "$(json p.json "$trigger.amplification")" ">" 1.3 "retries of RESOURCE_EXHAUSTED amplified the spike"
assert_cmp "$(json p.json "$trigger.not_ok_fraction")" ">" 0.2 "shed calls, retried or not, are not ok"
assert_cmp "$(json p.json "$trigger.goodput_rps")" "<" 60 "goodput during the spike is about the lab's 40/s"
assert_cmp "$(json p.json '.runs[0].phases[0].stats.amplification')" == 1 "no retry at the base load"
jq '.runs[0].results' p.json >r.json
assert_conserved r.json
counts=.summary.counts
assert_cmp "$(json r.json "$counts.grpc_statuses.RESOURCE_EXHAUSTED")" ">" 0 "some calls shed on every attempt"
assert_cmp "$(json r.json "$counts.grpc_statuses.OK")" == "$(json r.json "$counts.ok")" "ok counts the OK calls only"
assert_cmp "$(json r.json "$counts.retries")" ">" 50 "shed calls were retried"
sent=$(json r.json "$counts.attempts + .warmup.counts.attempts")
assert_cmp "$(lab_stats .grpc.calls)" == "$sent" "the lab saw every attempt (warm-up's too), nothing more"
assert_cmp "$(lab_stats .grpc.reflection_streams)" == 1 "the schema was asked of the lab once"
pass "probe over gRPC with retries: $(json p.json .verdict), spike amplification $(json p.json "$trigger.amplification")"
