# Per-step results of a flow (docs/flows.md) against `openloop lab --auth`, with examples/flow-login.yaml:
# 1. Each of the four steps has its own counts and response times in the summary, the JSON and the HTML; each
#    step's counts are conserved, the steps' counts add up to the run's, every session that arrived ran step 1,
#    and no step ran more often than the one before it completed.
# 2. An SLO naming a step (`--slo 'login:p99<1us'`) is judged on that step's histogram: it fails, names the step,
#    and the run exits 1; `flow:` judges the sessions' time; an SLO naming no step or request exits 2 before anything
#    is sent, listing the names, and so does a flow SLO on anything but its time.
# 3. A broken capture path: each failure is counted at its step with an example naming the step and the response,
#    and the request log marks the 200s whose capture failed as check_failed, not ok.
# e2e: light (sessions at 20/s counted by step; INVALID only for the generator's lateness)
source "$OPENLOOP_E2E_LIB"
require_tools jq curl
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
start_lab --auth --workers 8 --service 1ms
source "$(dirname "$0")/flows_lib.sh"

# plan OUT [SED-EXPR]: the example pointed at the lab, 2 s long, edited by SED-EXPR.
plan() {
  sed -E -e "s#^target: http://127\.0\.0\.1:8080#target: $LAB_URL#" -e 's/^(    duration:) 10s/\1 2s/' \
    ${2:+-e "$2"} "$root/examples/flow-login.yaml" >"$1"
  grep -q "target: $LAB_URL" "$1" && grep -q 'duration: 2s' "$1" || fail "plan $1 was not edited as expected"
}

# 1. Every step on its own.
plan "$E2E_TMP/good.yaml"
"$OPENLOOP" run "$E2E_TMP/good.yaml" --json "$E2E_TMP/good.json" --html "$E2E_TMP/good.html" >"$E2E_TMP/good.txt" 2>&1 ||
  code=$?
accept_invalid_only_for "${code:-0}" "$E2E_TMP/good.json" '^([a-z-]+: )?send lateness'
r=$E2E_TMP/good.json
assert_cmp "$(json "$r" '.summary.steps | length')" == 4 "four steps"
[[ $(json "$r" '[.summary.steps[].request] | join(",")') == login,account,create_order,get_order ]] ||
  fail "the steps in order: $(jq -c '[.summary.steps[].request]' "$r")"
assert_conserved "$r" '[.summary.steps[].counts]'
assert_cmp "$(json "$r" '[.summary.steps[].counts.intended] | add')" == "$(json "$r" .summary.counts.intended)" \
  "the steps' requests are the run's"
assert_cmp "$(json "$r" '[.summary.steps[].counts.ok] | add')" == "$(json "$r" .summary.counts.ok)" "and so are their ok"
sessions=$(json "$r" .summary.flows.sessions_intended)
assert_cmp "$sessions" ">=" 20 "about 20/s for 2 s"
assert_cmp "$(json "$r" '.summary.steps[0].counts.intended')" == \
  "$(($(json "$r" .summary.flows.sessions_intended) - $(json "$r" .summary.flows.sessions_dropped)))" \
  "every session that started ran step 1"
for k in 1 2 3; do
  assert_cmp "$(json "$r" ".summary.steps[$k].counts.intended")" "<=" "$(json "$r" ".summary.steps[$((k - 1))].counts.ok")" \
    "step $((k + 1)) ran only after step $k succeeded"
  assert_cmp "$(json "$r" ".summary.steps[$k].counts.intended")" ">=" \
    "$(($(json "$r" ".summary.steps[$((k - 1))].counts.ok") - $(json "$r" .summary.flows.sessions_unfinished)))" \
    "step $((k + 1)) followed every step $k that succeeded, but in sessions cut by the end"
done
for k in 0 1 2 3; do
  name=$(json "$r" ".summary.steps[$k].request")
  assert_cmp "$(json "$r" ".summary.steps[$k].response_time_ms.count")" == \
    "$(json "$r" ".summary.by_request.$name.response_time_ms.count")" "step $((k + 1)): its request's histogram"
  assert_cmp "$(json "$r" ".summary.steps[$k].response_time_ms.count")" ">=" "$(json "$r" ".summary.steps[$k].counts.completed")" \
    "step $((k + 1)): a response time per response"
  grep -qE "^  $((k + 1)) +$name +$(json "$r" ".summary.steps[$k].counts.intended") +$(json "$r" ".summary.steps[$k].counts.ok") " \
    "$E2E_TMP/good.txt" || fail "the summary's line for step $((k + 1)): $(grep -A6 '  step ' "$E2E_TMP/good.txt")"
  grep -q "data-scope=\"step:$((k + 1))\" data-intended=\"$(json "$r" ".summary.steps[$k].counts.intended")\"" \
    "$E2E_TMP/good.html" || fail "the HTML's row for step $((k + 1))"
done
grep -q 'data-scope="flow"' "$E2E_TMP/good.html" || fail "the HTML's row for the flow"

# 2. An SLO on one step.
code=0
"$OPENLOOP" run "$E2E_TMP/good.yaml" --json "$E2E_TMP/slo.json" --slo 'login:p99<1us' --slo 'p99<10s' --slo 'flow:p99<1us' \
  >"$E2E_TMP/slo.txt" 2>&1 || code=$?
if [[ $code == 3 ]]; then
  accept_invalid_only_for "$code" "$E2E_TMP/slo.json" '^([a-z-]+: )?send lateness'
else
  assert_cmp "$code" == 1 "a failed step SLO exits 1"
fi
assert_cmp "$(json "$E2E_TMP/slo.json" '[.slos[] | select(.request == "login" and .met == false and .evaluated)] | length')" \
  == 1 "the login step's SLO failed"
assert_near "$(json "$E2E_TMP/slo.json" '.slos[] | select(.request == "login") | .measured')" \
  "$(json "$E2E_TMP/slo.json" '.summary.steps[0].response_time_ms.p99')" 0.000001 "judged on the login step's p99"
assert_cmp "$(json "$E2E_TMP/slo.json" '[.slos[] | select(.slo == "p99<10s" and .met)] | length')" == 1 "the run's own SLO met"
grep -q 'login:p99<1us' "$E2E_TMP/slo.txt" || fail "the summary names the step's SLO: $(cat "$E2E_TMP/slo.txt")"
assert_near "$(json "$E2E_TMP/slo.json" '.slos[] | select(.slo == "flow:p99<1us" and .met == false) | .measured')" \
  "$(json "$E2E_TMP/slo.json" '.summary.flows.session_time_ms.p99')" 0.000001 "the flow's SLO is judged on its time"
expect_usage '--slo "flow:errors<1%": the flow'"'"'s SLO judges its time' "$E2E_TMP/good.yaml" --slo 'flow:errors<1%'
logins=$(lab_query .auth.logins)
expect_usage '--slo "logon:p99<200ms": the plan has no request named "logon" (its requests: "login", "account", "create_order", "get_order"; or flow' \
  "$E2E_TMP/good.yaml" --slo 'logon:p99<200ms'
assert_cmp "$(lab_query .auth.logins)" == "$logins" "nothing was sent"

# 3. The order's id captured at a wrong path: counted at step 3, with an example; the log says which 200s failed.
plan "$E2E_TMP/bad.yaml" 's/json: \$\.id\}/json: $.order.id}/'
grep -qF 'json: $.order.id}' "$E2E_TMP/bad.yaml" || fail "the capture path was not broken"
code=0
"$OPENLOOP" run "$E2E_TMP/bad.yaml" --json "$E2E_TMP/bad.json" --log-requests "$E2E_TMP/bad.log" \
  >"$E2E_TMP/bad.txt" 2>&1 || code=$?
# Every session's failed capture is a response that is not ok: the default goodput SLO fails (exit 1).
if [[ $code == 3 ]]; then
  accept_invalid_only_for "$code" "$E2E_TMP/bad.json" '^([a-z-]+: )?send lateness'
else
  assert_cmp "$code" == 1 "the default goodput SLO fails"
fi
r=$E2E_TMP/bad.json
failed=$(json "$r" '.summary.steps[2].captures_failed')
assert_cmp "$failed" ">=" 15 "step 3's captures failed"
assert_cmp "$failed" == "$(json "$r" '.summary.steps[2].counts.completed')" "each of step 3's responses"
assert_cmp "$(json "$r" '.summary.steps[2].counts.ok')" == 0 "none of them ok"
assert_cmp "$(json "$r" '.summary.steps[2].stopped')" == "$failed" "each stopped its session"
assert_cmp "$(json "$r" '.summary.steps[0].captures_failed + .summary.steps[1].checks_failed')" == 0 "steps 1 and 2 passed"
assert_cmp "$(json "$r" '.summary.steps[3].counts.intended')" == 0 "no session reached step 4"
example=$(json "$r" '.summary.error_examples["step 3 create_order"]')
[[ $example == "capture order_id: nothing at \$.order.id in create_order's response, status 200, "*" bytes" ]] ||
  fail "step 3's example: $example"
grep -qF "e.g. step 3 create_order: capture order_id: nothing at \$.order.id" "$E2E_TMP/bad.txt" ||
  fail "the summary shows the example: $(grep 'e\.g\.' "$E2E_TMP/bad.txt")"
logged=$(jq -s '[.[] | select(.request == "create_order" and .warmup == false)]' "$E2E_TMP/bad.log")
assert_cmp "$(jq '[.[] | select(.outcome == "check_failed" and .status == 200)] | length' <<<"$logged")" == "$failed" \
  "each create_order whose capture failed is logged as check_failed with its 200"
assert_cmp "$(jq '[.[] | select(.outcome == "ok")] | length' <<<"$logged")" == 0 "none logged as ok"
pass "steps: $(jq -c '[.summary.steps[] | {request, intended: .counts.intended, p99: .response_time_ms.p99}]' "$E2E_TMP/good.json")"
