#!/usr/bin/env bash
# The outcome side against a real gRPC server (grpcio, tests/e2e/grpc/server.py): calls counted by gRPC status name
# in the results (their sum the completed count, HTTP status classes all 2xx), a success set with gaps, the response
# messages' count and bytes, merge adding the counts; UNAVAILABLE retried under the default policy, the server's
# grpc-retry-pushback-ms honoured (the retry reaches the server no sooner) and a negative one ending the retries;
# grpc-timeout per attempt under --per-try-timeout.
# e2e: light (calls counted by status at 2-60/s; the retry's pushback a lower bound)
source "$OPENLOOP_E2E_LIB"
source "$(dirname "$0")/grpc_server.sh"
grpc_require

base=(--call openloop.test.v1.Bench/Call --proto "$GRPC_PROTOS/bench.proto" --import-path "$GRPC_PROTOS"
  --threads 1 --slo none -q)
# run_calls NAME ARGS...: a run, its results in $E2E_TMP/NAME.json; a run that misses its send schedule on a
# loaded host is INVALID for that reason only.
run_calls() {
  local name=$1 code=0
  shift
  "$OPENLOOP" run "$GRPC_URL" "${base[@]}" --json "$E2E_TMP/$name.json" "$@" >"$E2E_TMP/$name.out" 2>&1 || code=$?
  accept_invalid_only_for "$code" "$E2E_TMP/$name.json" '^send lateness'
  assert_conserved "$E2E_TMP/$name.json"
}

start_grpc_server
# Each third call OK, NOT_FOUND, UNAVAILABLE (by its index among the calls with this note): 60 calls, 20 each.
cycle='{"note": "cycle:OK,NOT_FOUND,UNAVAILABLE", "size": 16}'
run_calls cycle --data "$cycle" --rate 60/s --duration 1s --grpc-success OK,UNAVAILABLE
r=$E2E_TMP/cycle.json
jq -e '.summary.counts | .completed == 60 and .grpc_statuses == {"OK": 20, "NOT_FOUND": 20, "UNAVAILABLE": 20}' \
  "$r" >/dev/null || fail "grpc_statuses: $(jq -c .summary.counts "$r")"
jq -e '.summary.counts | ([.grpc_statuses[]] | add) == .completed and .status_classes["2xx"] == .completed' "$r" \
  >/dev/null || fail "the statuses do not add up to completed: $(jq -c .summary.counts "$r")"
jq -e '[.intervals[].counts.grpc_statuses // {} | .[]] | add == 60' "$r" >/dev/null ||
  fail "the intervals' statuses do not add up to 60: $(jq -c '[.intervals[].counts.grpc_statuses]' "$r")"
pass "60 calls counted by status name: OK 20, NOT_FOUND 20, UNAVAILABLE 20, summing to completed"

jq -e '.summary.counts.ok == 40 and .plan.success_statuses == "OK,UNAVAILABLE"' "$r" >/dev/null ||
  fail "--grpc-success OK,UNAVAILABLE: $(jq -c '[.summary.counts.ok, .plan.success_statuses]' "$r")"
pass "--grpc-success OK,UNAVAILABLE (a set with a gap): 40 ok"

# A reply is one message: the payload of --data's size (16 bytes, a length-delimited field: 18) and served (a
# varint, 2 or 3 bytes); an error (Trailers-Only) has none.
jq -e '.summary.counts | .grpc_messages_in == 20 and .grpc_message_bytes_in >= 20 * 20 and
  .grpc_message_bytes_in <= 20 * 21' "$r" >/dev/null ||
  fail "response messages: $(jq -c '.summary.counts | [.grpc_messages_in, .grpc_message_bytes_in]' "$r")"
"$OPENLOOP" report "$r" >"$E2E_TMP/cycle.summary" 2>&1 || fail "report: $(cat "$E2E_TMP/cycle.summary")"
grep -q '^gRPC statuses   OK 20   NOT_FOUND 20   UNAVAILABLE 20' "$E2E_TMP/cycle.summary" ||
  fail "the summary's gRPC statuses: $(grep -i grpc "$E2E_TMP/cycle.summary")"
grep -q '^gRPC response messages 20 ' "$E2E_TMP/cycle.summary" ||
  fail "the summary's response messages: $(grep -i grpc "$E2E_TMP/cycle.summary")"
pass "the 20 OK replies' messages counted with their bytes, in the results and the summary"

run_calls again --data "$cycle" --rate 60/s --duration 1s --grpc-success OK,UNAVAILABLE
"$OPENLOOP" merge "$r" "$E2E_TMP/again.json" -o "$E2E_TMP/merged.json" -q || fail "merge failed"
jq -e '.summary.counts | .grpc_statuses == {"OK": 40, "NOT_FOUND": 40, "UNAVAILABLE": 40} and
  .grpc_messages_in == 40' "$E2E_TMP/merged.json" >/dev/null ||
  fail "merged: $(jq -c .summary.counts "$E2E_TMP/merged.json")"
pass "merge adds the counts by status name"

# The first call answers UNAVAILABLE with a 300 ms pushback: retried (connect,5xx by default covers UNAVAILABLE),
# the retry reaching the server at least 300 ms after it.
run_calls pushback --data '{"note": "first:1:UNAVAILABLE:300"}' --rate 2/s --duration 1s --retry-attempts 2 \
  --honor-retry-after
jq -e '.summary.counts | .retries == 1 and .grpc_statuses == {"OK": 2} and .ok == 2' "$E2E_TMP/pushback.json" \
  >/dev/null || fail "pushback: $(jq -c .summary.counts "$E2E_TMP/pushback.json")"
# Without --honor-retry-after the backoff (25 ms base) would retry within 25 ms.
run_calls negative --data '{"note": "first:1:UNAVAILABLE:-1"}' --rate 2/s --duration 1s --retry-attempts 2 \
  --honor-retry-after
jq -e '.summary.counts | .retries == 0 and .grpc_statuses == {"UNAVAILABLE": 1, "OK": 1}' "$E2E_TMP/negative.json" \
  >/dev/null || fail "negative pushback: $(jq -c .summary.counts "$E2E_TMP/negative.json")"
run_calls exhausted --data '{"note": "first:1:RESOURCE_EXHAUSTED"}' --rate 2/s --duration 1s --retry-attempts 2 \
  --retry-on 429
jq -e '.summary.counts | .retries == 1 and .grpc_statuses == {"OK": 2}' "$E2E_TMP/exhausted.json" \
  >/dev/null || fail "RESOURCE_EXHAUSTED: $(jq -c .summary.counts "$E2E_TMP/exhausted.json")"
# grpc-timeout per attempt: 150 ms under --per-try-timeout 150ms, the whole --timeout 2s without.
run_calls per_try --data '{"note": "per-try"}' --rate 2/s --duration 1s --retry-attempts 2 --per-try-timeout 150ms \
  --timeout 2s
run_calls whole --data '{"note": "whole"}' --rate 2/s --duration 1s --timeout 2s
stop_grpc_server
awk '$3 == "first:1:UNAVAILABLE:300" { t[++n] = $1 } END { exit !(n == 3 && t[2] - t[1] >= 0.3) }' "$GRPC_TIMES" ||
  fail "the retry came sooner than the 300 ms pushback: $(grep 'UNAVAILABLE:300' "$GRPC_TIMES")"
pass "UNAVAILABLE retried after the server's 300 ms pushback; a negative pushback not retried; RESOURCE_EXHAUSTED retried as 429"
awk '$3 == "per-try" { n++; if ($2 <= 0 || $2 > 0.15) bad++ } END { exit !(n == 2 && !bad) }' "$GRPC_TIMES" ||
  fail "grpc-timeout under --per-try-timeout 150ms: $(grep per-try "$GRPC_TIMES")"
awk '$3 == "whole" { n++; if ($2 <= 1.5 || $2 > 2) bad++ } END { exit !(n == 2 && !bad) }' "$GRPC_TIMES" ||
  fail "grpc-timeout with --timeout 2s: $(grep whole "$GRPC_TIMES")"
pass "grpc-timeout is each attempt's deadline: the per-try timeout's when set"
