# e2e: parallel-safe
# The lab's auth flow in `openloop simulate` (docs/simulate.md, "Flows"): examples/flow-login.yaml, the plan that
# runs against `openloop lab --auth`, runs the same way in virtual time with the same lab options, each simulated
# request routed by the lab's own request router:
# 1. Every chained step succeeds (login → token → account → order id → the order), each session completes, and
#    the simulated lab's own counters agree (a login per session, every later request authorized, every order
#    found). Deterministic: a second run gives the same counts.
# 2. A wrong capture path for the order's id fails each session at step 3, counted there and named in its
#    example; no session reaches step 4 and the lab finds no order asked for.
# 3. Without the token (the header dropped), every account request is answered 401 by the simulated lab.
source "$OPENLOOP_E2E_LIB"
require_tools jq
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
lab='--auth --workers 8 --service 1ms'

# plan OUT [SED-EXPR]: the example, 5 s of 20 sessions/s, edited by SED-EXPR.
plan() {
  sed -E -e 's/^(    duration:) 10s/\1 5s/' ${2:+-e "$2"} "$root/examples/flow-login.yaml" >"$1"
  grep -q 'duration: 5s' "$1" || fail "plan $1 was not edited as expected"
}
# simulate NAME [EXPECTED-EXIT]: simulates $E2E_TMP/NAME.yaml against the lab options; results in NAME.json.
simulate() {
  local code=0
  "$OPENLOOP" simulate "$E2E_TMP/$1.yaml" --lab "$lab" --json "$E2E_TMP/$1.json" >"$E2E_TMP/$1.txt" 2>&1 || code=$?
  assert_cmp "$code" == "${2:-0}" "simulate $1 exits ${2:-0} ($(tail -5 "$E2E_TMP/$1.txt"))"
  assert_conserved "$E2E_TMP/$1.json"
  assert_conserved "$E2E_TMP/$1.json" '[.summary.steps[].counts]'
}

# 1. The whole chain.
plan "$E2E_TMP/good.yaml"
simulate good
r=$E2E_TMP/good.json
sessions=$(json "$r" .summary.flows.sessions_intended)
completed=$(json "$r" .summary.flows.sessions_completed)
assert_cmp "$sessions" ">=" 60 "about 20 sessions/s for 5 s"
assert_cmp "$(json "$r" .summary.flows.sessions_failed)" == 0 "no session failed"
assert_cmp "$((sessions - completed))" "<=" 2 "every session completed but those the end cut"
for k in 0 1 2 3; do
  assert_cmp "$(json "$r" ".summary.steps[$k].counts.ok")" ">=" "$completed" "step $((k + 1)) ok in every completed session"
  assert_cmp "$(json "$r" ".summary.steps[$k].counts.ok")" == "$(json "$r" ".summary.steps[$k].counts.completed")" \
    "step $((k + 1)): every response ok"
  assert_cmp "$(json "$r" ".summary.steps[$k].captures_failed + .summary.steps[$k].checks_failed")" == 0 \
    "step $((k + 1)): every capture and check passed"
done
steps() { json "$r" "[.summary.steps[$1].counts.$2] | add"; }
assert_cmp "$(json "$r" .service_stats.auth.logins)" == "$(steps 0 ok)" "the simulated lab issued a token per login"
assert_cmp "$(json "$r" .service_stats.auth.authorized)" == "$(steps 1,2,3 intended)" "and authorized every later step"
assert_cmp "$(json "$r" .service_stats.auth.orders_found)" == "$(steps 3 ok)" "and found every order asked for"
assert_cmp "$(json "$r" '.service_stats.auth.unauthorized + .service_stats.auth.orders_missing')" == 0 "nothing refused"
assert_cmp "$(json "$r" .service_stats.arrivals)" == "$(steps 1 intended)" "only the account requests reached the model"
cp "$r" "$E2E_TMP/good1.json"
simulate good
assert_cmp "$(json "$r" .summary.flows.sessions_completed)" == "$completed" "the same again: virtual time"
assert_cmp "$(json "$r" .service_stats.auth.logins)" == "$(json "$E2E_TMP/good1.json" .service_stats.auth.logins)" \
  "the same logins"

# 2. The order's id captured at a wrong path.
plan "$E2E_TMP/bad.yaml" 's/json: \$\.id\}/json: $.order.id}/'
grep -qF 'json: $.order.id}' "$E2E_TMP/bad.yaml" || fail "the capture path was not broken"
simulate bad 1 # every failed capture is a response that is not ok: the default goodput SLO fails
r=$E2E_TMP/bad.json
sessions=$(json "$r" .summary.flows.sessions_intended)
failed=$(json "$r" .summary.flows.sessions_failed)
assert_cmp "$sessions" ">=" 60 "about 20 sessions/s for 5 s"
assert_cmp "$((sessions - failed))" "<=" 2 "every session failed but those the end cut"
assert_cmp "$(json "$r" .summary.steps[2].captures_failed)" == "$failed" "each at step 3's capture"
assert_cmp "$(json "$r" .summary.steps[2].stopped)" == "$failed" "which stopped it"
assert_cmp "$(json "$r" .summary.steps[2].counts.ok)" == 0 "no create_order counted ok"
assert_cmp "$(json "$r" .summary.steps[3].counts.intended)" == 0 "no session reached step 4"
assert_cmp "$(json "$r" '.summary.steps[0].captures_failed + .summary.steps[1].checks_failed')" == 0 "steps 1 and 2 passed"
example=$(json "$r" '.summary.error_examples["step 3 create_order"]')
[[ $example == "capture order_id: nothing at \$.order.id in create_order's response, status 200, "*" bytes" ]] ||
  fail "step 3's example: $example"
assert_cmp "$(json "$r" .service_stats.auth.orders_created)" == "$(json "$r" .summary.steps[2].counts.completed)" \
  "the lab created the orders"

# 3. No token (neither the header nor the login's cookie): the simulated lab answers 401.
plan "$E2E_TMP/anon.yaml" '/^  account:/,/^  create_order:/{/Authorization/d;/^    headers:/d}'
sed -i 's/^    max_sessions: 200$/&\n    cookies: off/' "$E2E_TMP/anon.yaml"
grep -A3 '^  account:' "$E2E_TMP/anon.yaml" | grep -q Authorization && fail "the account step still sends its token"
grep -q '^    cookies: off$' "$E2E_TMP/anon.yaml" || fail "the cookie jar is still on"
simulate anon 1
r=$E2E_TMP/anon.json
failed=$(json "$r" .summary.steps[1].checks_failed)
assert_cmp "$failed" ">=" 60 "every account step's status check failed"
assert_cmp "$failed" == "$(json "$r" .summary.steps[1].counts.completed)" "each of them"
assert_cmp "$(json "$r" .service_stats.auth.unauthorized)" == "$failed" "answered 401 by the simulated lab"
assert_cmp "$(json "$r" .service_stats.arrivals)" == 0 "none reached the model"
pass "simulate --lab '$lab': $(jq -c '[.summary.steps[] | {request, ok: .counts.ok}]' "$E2E_TMP/good.json")"
