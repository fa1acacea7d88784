# examples/flow-login.yaml against `openloop lab --auth`: every session logs in, reads a page with its token,
# creates an order and fetches it by the id it captured. 1. Every completed session's four steps succeeded, and the
# lab's own counters agree (a login, three authorized requests, an order created and found per completed session;
# nothing unauthorized or missing). 2. A broken capture path (the order's id read at $.order.id) stops every
# session at step 3, counted there; no order is fetched. 3. A step without the token is refused by the lab (401):
# sessions fail at step 2, and the lab counts each refusal (with `cookies: off`: the jar would send the lab's
# session cookie, which authorizes the step; cookie_jar_test.sh tests that). Sessions are conserved in every run
# (completed + failed + dropped + unfinished = intended, in the summary and every interval).
# e2e: light (sessions at 20/s counted against the lab's own auth counters)
source "$OPENLOOP_E2E_LIB"
require_tools jq curl perl
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
start_lab --auth --workers 8 --service 1ms

# plan OUT [SED-EXPR] [SOURCE]: the example (or SOURCE) pointed at the lab, 2 s long, edited by SED-EXPR.
plan() {
  sed -E -e "s#^target: http://127\.0\.0\.1:8080#target: $LAB_URL#" -e 's/^(    duration:) 10s/\1 2s/' \
    ${2:+-e "$2"} "${3:-$root/examples/flow-login.yaml}" >"$1"
  grep -q "target: $LAB_URL" "$1" && grep -q 'duration: 2s' "$1" || fail "plan $1 was not edited as expected"
}
source "$(dirname "$0")/flows_lib.sh"

# 1. The whole chain.
plan "$E2E_TMP/good.yaml"
run_plan good
r=$E2E_TMP/good.json
sessions=$(json "$r" .summary.flows.sessions_intended)
assert_cmp "$sessions" ">=" 20 "about 20/s for 2 s (Poisson arrivals)"
completed=$(json "$r" .summary.flows.sessions_completed)
unfinished=$(json "$r" .summary.flows.sessions_unfinished)
assert_cmp "$(json "$r" .summary.flows.sessions_failed)" == 0 "no session failed"
assert_cmp "$(json "$r" .summary.flows.sessions_dropped)" == 0 "no session dropped"
assert_cmp "$((completed + unfinished))" == "$sessions" "every session completed or was still running at the end"
assert_cmp "$unfinished" "<=" "$((sessions / 10 + 1))" "few sessions still running at the end"
[[ $(json_or_null "$r" .summary.flows.checks_failed) == null ]] || fail "no check failed: $(jq -c .summary.flows "$r")"
[[ $(json_or_null "$r" .summary.flows.captures_failed) == null ]] || fail "no capture failed"
assert_cmp "$(auth .logins)" ">=" "$completed" "a login for every completed session"
assert_cmp "$(auth .logins)" "<=" "$sessions" "at most one login per session"
assert_cmp "$(auth .orders_created)" ">=" "$completed" "an order per completed session"
assert_cmp "$(auth .orders_found)" ">=" "$completed" "every completed session fetched the order it created"
assert_cmp "$(auth .orders_found)" "<=" "$(auth .orders_created)" "no more orders found than created"
assert_cmp "$(auth .authorized)" ">=" "$((3 * completed))" "three authorized requests per completed session"
assert_cmp "$(auth .unauthorized)" == 0 "every request carried a token the lab issued"
assert_cmp "$(auth .orders_missing)" == 0 "every order fetched was one the lab issued"
assert_cmp "$(lab_query .ok)" ">=" "$completed" "the model served each completed session's account page"

# 2. The order's id captured at a wrong path: each session stops at step 3; no order is fetched.
found_before=$(auth '(.orders_found + .orders_missing)')
plan "$E2E_TMP/bad.yaml" 's/json: \$\.id\}/json: $.order.id}/'
grep -qF 'json: $.order.id}' "$E2E_TMP/bad.yaml" || fail "the capture path was not broken"
run_plan bad failing  # every session's failed capture is a response that is not ok: the goodput SLO fails
r=$E2E_TMP/bad.json
sessions=$(json "$r" .summary.flows.sessions_intended)
failed=$(json "$r" .summary.flows.sessions_failed)
unfinished=$(json "$r" .summary.flows.sessions_unfinished)
assert_cmp "$(json "$r" .summary.flows.sessions_completed)" == 0 "no session completed"
assert_cmp "$((failed + unfinished))" == "$sessions" "every session failed or was still running at the end"
assert_cmp "$failed" ">=" "$((sessions - sessions / 10 - 1))" "nearly every session reached step 3 and failed"
assert_cmp "$(json "$r" .summary.flows.stopped)" == "$failed" "each failed session was stopped by the capture"
assert_cmp "$(json "$r" .summary.flows.captures_failed)" == "$failed" "one failed capture per failed session"
assert_cmp "$(json "$r" .summary.flows.checks_failed)" == 0 "the checks passed"
assert_cmp "$(json "$r" '.summary.flows.steps | length')" == 3 "counts up to step 3"
assert_cmp "$(json "$r" '.summary.flows.steps[2].step')" == 3 "the third entry is step 3"
assert_cmp "$(json "$r" '.summary.flows.steps[2].stopped')" == "$failed" "step 3 stopped them"
assert_cmp "$(json "$r" '.summary.flows.steps[0].stopped + .summary.flows.steps[1].stopped')" == 0 \
  "steps 1 and 2 stopped none"
assert_cmp "$(auth '(.orders_found + .orders_missing)')" == "$found_before" "no order was fetched"
grep -q "flow checks  captures failed $failed   checks failed 0   sessions stopped $failed" "$E2E_TMP/bad.txt" ||
  fail "the summary counts the failed captures: $(grep -A4 'flow' "$E2E_TMP/bad.txt")"

# 3. The account page asked for without the token: the lab refuses it (401), each session fails at step 2.
refused_before=$(auth .unauthorized)
perl -0pe 's/(  account:[^\n]*\n    path: \/account\n)    headers:\n      Authorization: Bearer \{\{token\}\}\n/$1/' \
  "$root/examples/flow-login.yaml" >"$E2E_TMP/plain.yaml"
! grep -A2 '  account:' "$E2E_TMP/plain.yaml" | grep -q Authorization || fail "the account step still sends the token"
# The lab's login also sets its cookie: without the jar (cookies: off) the token is nowhere in the request.
plan "$E2E_TMP/noauth.yaml" 's/^(    max_sessions: 200)$/\1\n    cookies: off/' "$E2E_TMP/plain.yaml"
grep -q '^    cookies: off$' "$E2E_TMP/noauth.yaml" || fail "the cookie jar was not turned off"
run_plan noauth failing
r=$E2E_TMP/noauth.json
sessions=$(json "$r" .summary.flows.sessions_intended)
failed=$(json "$r" .summary.flows.sessions_failed)
unfinished=$(json "$r" .summary.flows.sessions_unfinished)
assert_cmp "$(json "$r" .summary.flows.sessions_completed)" == 0 "no session completed"
assert_cmp "$((failed + unfinished))" == "$sessions" "every session failed or was still running at the end"
assert_cmp "$failed" ">=" 1 "sessions failed"
refused=$(($(auth .unauthorized) - refused_before))
assert_cmp "$refused" ">=" "$failed" "the lab refused one request per failed session"
assert_cmp "$refused" "<=" "$((failed + unfinished))" "and none but those (or a session's still running at the end)"
assert_cmp "$(json "$r" '.summary.counts.status_classes["4xx"]')" ">=" "$failed" "the 401s are counted"
pass "flow-login: $(jq -c '.summary.flows | {sessions_intended, sessions_completed}' "$E2E_TMP/good.json"), lab $(curl -sS --max-time 5 "$LAB_URL/_lab/stats" | jq -c .auth)"
