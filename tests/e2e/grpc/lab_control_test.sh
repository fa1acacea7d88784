#!/usr/bin/env bash
# The control endpoint of `openloop lab --grpc`, reached over HTTP/1.1 on its h2c port (the lab picks the protocol
# by each connection's first bytes): curl --http1.1 reads /_lab/stats; the probe's stall trigger freezes the lab
# and restores its stall list, with --observe lab; `run --repeat 2` resets the lab's model between the repeats.
# tests/e2e/probe/lab_triggers_test.sh and tests/e2e/run/repeat_test.sh are the same over HTTP.
# e2e: light (a 1-s stall at 20/s shows in p99 (≥ 500 ms); the lab reset between repeats at 20/s)
source "$OPENLOOP_E2E_LIB"
source "$(dirname "$0")/grpc_server.sh"  # lab_stats
require_tools jq curl

start_lab --grpc --workers 2 --service 10ms --queue lifo --queue-limit 50 --shed-at 20
cd "$E2E_TMP"
[[ $(curl -sS --max-time 5 --http1.1 "$LAB_URL/_lab/stats" | jq -r '.http2.http1_connections') == 1 ]] ||
  fail "GET /_lab/stats over HTTP/1.1: $(curl -sS --max-time 5 --http1.1 -i "$LAB_URL/_lab/stats" 2>&1 | head -5)"
pass "curl --http1.1 reads a gRPC lab's /_lab/stats"

code=0
"$OPENLOOP" probe metastable "grpc://127.0.0.1:$PORT" --call openloop.lab.v1.Lab/Call --data '{"key": "k1"}' \
  --base 20/s --trigger stall:1s --baseline-for 2s --observe-for 1s --window 1s --warmup 500ms --timeout 2s \
  --observe lab --threads 1 --json p.json -q >p.txt 2>p.err || code=$?
cat p.txt
# This checks the trigger (sent, felt, restored), not the verdict: RECOVERED, METASTABLE or INCONCLUSIVE all do.
[[ $code == 0 || $code == 1 || $code == 3 ]] || fail "stall probe over gRPC: exit $code: $(cat p.err)"
json p.json '.runs[0].lab_actions[0]' | grep -q 'stall-at' || fail "no stall-at request: $(json p.json '.runs[0].lab_actions')"
grep -qE '^  lab: restored no stalls scheduled \(POST ' p.txt || fail "the restore in words: $(grep 'lab:' p.txt)"
assert_cmp "$(json p.json '.runs[0].phases[1].stats.p99_ms')" ">=" 500 "the stall shows in the trigger's p99"
[[ $(curl -sS --max-time 5 --http1.1 "$LAB_URL/_lab/config" | jq '."stall-at" | length') == 0 ]] ||
  fail "the stall list was not restored"
grep -qiE '^ *lab' <(sed -n '/^observed/,$p' p.txt) || fail "--observe lab: $(sed -n '/^observed/,+6p' p.txt)"
assert_cmp "$(lab_stats .http2.bad_preface)" == 0 "no connection was refused"
pass "probe grpc:// --trigger stall:1s --observe lab against lab --grpc: $(json p.json .verdict), stalls restored"

code=0
"$OPENLOOP" run "grpc://127.0.0.1:$PORT" --call openloop.lab.v1.Lab/Call --data '{"key": "k1"}' --repeat 2 \
  --rate 20/s --duration 500ms --threads 1 --timeout 2s --json r.json >out.txt 2>err.txt || code=$?
accept_invalid_only_for "$code" r.json '^repeat [12]: (send lateness|arrival process: )'
[[ $(jq -c '[.repeats[].lab_reset.state]' r.json) == '["none","done"]' ]] ||
  fail "lab reset: $(jq -c '[.repeats[].lab_reset]' r.json)"
grep -q 'repeat 2/2 (seed [0-9]*), lab reset done' err.txt || fail "stderr: $(cat err.txt)"
pass "run grpc:// --repeat 2 resets the gRPC lab between the repeats"
