#!/usr/bin/env bash
# e2e: parallel-safe (counts by status, merged and scraped; no timing judged)
# A plan file's gRPC calls beyond one run (issue 29: "every workload model, ramp, probe, compare, merge, shards,
# metrics and the request log work"): a plan mixing a GET and a call against `openloop lab --grpc`, run as two
# shards at one --start-at, shard 0 serving its metrics; `merge` adds the shards' counts by gRPC status exactly,
# the scrape counts shard 0's calls by status name, each request log names its calls' statuses, and the lab's own
# counts equal the merged ones.
source "$OPENLOOP_E2E_LIB"
require_tools jq curl
lab_stats() { curl -sS --max-time 5 --http1.1 "$LAB_URL/_lab/stats" | strict_jq "$LAB_URL/_lab/stats" "$1"; }

start_lab --grpc --workers 4 --service 1ms
cd "$E2E_TMP"
cat >plan.yaml <<YAML
target: grpc://127.0.0.1:$PORT
requests:
  page: GET /page
  lookup: {call: openloop.lab.v1.Lab/Call, message: {key: "k{{uniform(1, 50)}}"}}
scenarios:
  mixed: {model: open, rate: 100/s, duration: 2s, mix: {page: 1, lookup: 3}}
YAML
mport=$(free_port)
start_at=$(date -u -d '+2 seconds' +%Y-%m-%dT%H:%M:%SZ)
"$OPENLOOP" run plan.yaml --threads 1 -q --shard 0/2 --start-at "$start_at" --json s0.json --log-requests s0.log \
  --metrics-listen "127.0.0.1:$mport" --metrics-linger 20s >s0.out 2>&1 &
pid0=$!
E2E_PIDS+=("$pid0")
code1=0
"$OPENLOOP" run plan.yaml --threads 1 -q --shard 1/2 --start-at "$start_at" --json s1.json --log-requests s1.log \
  >s1.out 2>&1 || code1=$?
# Shard 0 writes its results before its linger: wait (≤ 15 s) for them, then scrape its final state.
for _ in $(seq 150); do
  [[ -s s0.json ]] && break
  sleep 0.1
done
[[ -s s0.json ]] || fail "shard 0 wrote no results within 15 s: $(cat s0.out)"
curl -sf --max-time 2 "http://127.0.0.1:$mport/metrics" >m.txt || fail "no scrape of shard 0 during its linger"
kill -TERM "$pid0"
code0=0
wait "$pid0" || code0=$?
accept_invalid_only_for "$code0" s0.json '^(mixed: )?send lateness'
accept_invalid_only_for "$code1" s1.json '^(mixed: )?send lateness'

for i in 0 1; do
  assert_conserved "s$i.json"
  jq -e '.summary.counts.ok == .summary.counts.intended and .summary.counts.intended > 0
    and .summary.by_request.lookup.counts.grpc_statuses.OK == .summary.by_request.lookup.counts.intended
    and .summary.counts.grpc_statuses == .summary.by_request.lookup.counts.grpc_statuses
    and (.summary.by_request.page.counts | has("grpc_statuses") | not)' "s$i.json" >/dev/null ||
    fail "shard $i: $(jq -c '.summary.by_request | map_values(.counts)' "s$i.json")"
  jq -e -s --slurpfile r "s$i.json" '(map(select(.request == "lookup" and .grpc_status == "OK")) | length)
    == $r[0].summary.by_request.lookup.counts.intended' "s$i.log" >/dev/null ||
    fail "shard $i's request log: $(head -n 2 "s$i.log")"
done
ok0=$(json s0.json .summary.counts.grpc_statuses.OK)
ok1=$(json s1.json .summary.counts.grpc_statuses.OK)
pass "two shards of the plan: every request ok, $ok0 and $ok1 calls counted OK, as their request logs say"

scraped=$(awk '/^openloop_grpc_responses_total\{/ && /status="OK"/ {n += $2} END {print n + 0}' m.txt)
assert_cmp "$scraped" == "$ok0" "shard 0's scrape counts its calls by status ($(grep -c '^openloop_grpc_responses_total' m.txt) series)"

"$OPENLOOP" merge s0.json s1.json --output merged.json >merge.out 2>&1 || fail "merge: $(cat merge.out)"
assert_conserved merged.json
jq -e --argjson ok $((ok0 + ok1)) '.summary.counts.grpc_statuses == {"OK": $ok}
  and .summary.by_request.lookup.counts.grpc_statuses == {"OK": $ok}
  and .plan.grpc.calls == {"lookup": "openloop.lab.v1.Lab/Call"}' merged.json >/dev/null ||
  fail "merged: $(jq -c '{counts: .summary.counts, grpc: .plan.grpc}' merged.json)"
completed=$(json merged.json .summary.counts.completed)
assert_cmp "$(lab_stats .completed)" == "$completed" "the lab completed what the merged shards completed"
assert_cmp "$(lab_stats .grpc.calls)" == $((ok0 + ok1)) "the lab served the merged calls"
stop_lab
pass "merged: $((ok0 + ok1)) calls OK of $completed completed, the lab's own counts the same"
