#!/usr/bin/env bash
# e2e: parallel-safe (counts by status and the lab's own counts; no timing judged)
# A plan file mixing an HTTP request and a gRPC call in one sessions scenario against `openloop lab --grpc` (the
# call's schema from the lab's reflection): each session a GET then a call with a templated message and metadata;
# each request judged by its own outcome, counted by status, and the lab's own counts equal openloop's.
source "$OPENLOOP_E2E_LIB"
require_tools jq curl
lab_stats() { curl -sS --max-time 5 --http2-prior-knowledge "$LAB_URL/_lab/stats" | strict_jq "$LAB_URL/_lab/stats" "$1"; }

start_lab --grpc
cat >"$E2E_TMP/plan.yaml" <<YAML
target: grpc://127.0.0.1:$PORT
requests:
  page: GET /page
  lookup:
    call: openloop.lab.v1.Lab/Call
    message: {key: "k{{uniform(1, 50)}}"}
    metadata: {x-user: ada}
scenarios:
  mixed: {model: sessions, session_rate: 50/s, duration: 2s, steps: [page, lookup]}
YAML
code=0
"$OPENLOOP" run "$E2E_TMP/plan.yaml" --threads 1 --json "$E2E_TMP/r.json" --log-requests "$E2E_TMP/r.log" -q \
  >"$E2E_TMP/r.out" 2>&1 || code=$?
[[ $code == 2 || $code == 4 ]] && fail "the plan did not run (exit $code): $(cat "$E2E_TMP/r.out")"
accept_invalid_only_for "$code" "$E2E_TMP/r.json" '^(mixed: )?send lateness'
r=$E2E_TMP/r.json
assert_conserved "$r"
# 100 sessions (50/s for 2 s) each send the GET; a session whose GET ends after the run's end sends no call.
jq -e '.summary.by_request | (.page.counts | .intended == 100 and .ok == 100 and (has("grpc_statuses") | not))
  and (.lookup.counts | .intended >= 90 and .ok == .intended and .grpc_statuses == {"OK": .intended})' "$r" >/dev/null ||
  fail "per request: $(jq -c '.summary.by_request | map_values(.counts)' "$r")"
calls=$(json "$r" .summary.by_request.lookup.counts.intended)
jq -e --argjson calls "$calls" '.summary.counts | .intended == 100 + $calls and .ok == .intended
  and .grpc_statuses == {"OK": $calls}' "$r" >/dev/null || fail "totals: $(jq -c .summary.counts "$r")"
jq -e '.plan.protocol == "h2" and .plan.grpc.calls == {"lookup": "openloop.lab.v1.Lab/Call"}' "$r" >/dev/null ||
  fail "plan: $(jq -c '{protocol: .plan.protocol, grpc: .plan.grpc}' "$r")"
jq -e -s --argjson calls "$calls" '(map(select(.request == "lookup" and .grpc_status == "OK")) | length) == $calls
  and (map(select(.request == "page" and (has("grpc_status") | not))) | length) == 100' "$E2E_TMP/r.log" >/dev/null ||
  fail "request log: $(head -n 2 "$E2E_TMP/r.log")"
pass "sessions of a GET and a call: all ok, the $calls calls counted OK by gRPC status, the 100 GETs by HTTP"

completed=$(json "$r" .summary.counts.completed)
assert_cmp "$(lab_stats .completed)" == "$completed" "the lab completed what openloop completed"
assert_cmp "$(lab_stats .grpc.calls)" == "$calls" "the lab served $calls calls"
assert_cmp "$(lab_stats .grpc.reflection_streams)" == 1 "the schema asked for once, by reflection"
stop_lab
pass "the lab's own counts: $completed completed, $calls of them calls, one reflection stream"
