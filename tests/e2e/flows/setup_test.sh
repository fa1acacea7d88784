# A plan's setup: and teardown: steps against `openloop lab --auth` (docs/flows.md). 1. The setup logs in once
# and captures the lab's token; every session then creates an order and fetches it with that token (no login of
# its own, no cookie jar), and the teardown reads the account page with it after the load: the lab counts one
# login in all, every order request authorized, none refused. `validate` describes both. 2. A setup whose
# capture reads a wrong JSON path, and 3. one whose login path is wrong (404), stop the run before any load:
# exit 2, a message naming the step, the request and why, no results file, and the lab sees the setup's one
# request and nothing of the load. 4. A scenario step capturing a name the setup captures is refused (exit 2).
# 5. An interrupted run still sends its teardown.
# e2e: light (the setup's token in every session at 20/s)
source "$OPENLOOP_E2E_LIB"
require_tools jq curl
start_lab --auth --workers 4 --service 1ms
source "$(dirname "$0")/flows_lib.sh"

# plan OUT [LOGIN_PATH] [TOKEN_PATH]: the flow with its login in setup:, to LOGIN_PATH, its token at TOKEN_PATH.
plan() {
  cat >"$E2E_TMP/$1.yaml" <<YAML
target: $LAB_URL
requests:
  login: {method: POST, path: ${2:-/_lab/login}, body: '{"user": "ann"}'}
  create_order: {method: POST, path: /_lab/orders, body: '{"sku": 42}', headers: {Authorization: 'Bearer {{token}}'}}
  get_order: {path: '/_lab/orders/{{order_id}}', headers: {Authorization: 'Bearer {{token}}'}}
  account: {path: /account, headers: {Authorization: 'Bearer {{token}}'}}
setup:
  - request: login
    capture: [{as: token, json: ${3:-\$.token}}]
    check: [{status: 200}]
teardown:
  - {request: account, check: [{status: 200}]}
scenarios:
  shop:
    model: sessions
    session_rate: 20/s
    duration: 2s
    max_sessions: 100
    cookies: off
    steps:
      - request: create_order
        capture: [{as: order_id, json: \$.id}]
        check: [{status: 200}]
      - request: get_order
        check: [{status: 200}]
YAML
}
# load: what the lab served apart from its stats queries (logins, order requests, model paths).
load() { lab_query '.auth.logins + .auth.authorized + .auth.unauthorized + .ok + .errors'; }

# 1. One login for the whole run; every session's requests carry the setup's token.
plan good
"$OPENLOOP" validate "$E2E_TMP/good.yaml" >"$E2E_TMP/validate.txt" || fail "validate refused the plan"
grep -qF 'setup, once before the load (a failure stops the run; its values are read-only to every request): login (captures token)' \
  "$E2E_TMP/validate.txt" || fail "validate does not describe the setup: $(cat "$E2E_TMP/validate.txt")"
grep -qF 'teardown, once after the load (also after an interrupted one): account' "$E2E_TMP/validate.txt" ||
  fail "validate does not describe the teardown"
logins=$(lab_query .auth.logins)
authorized=$(lab_query .auth.authorized)
ok_before=$(lab_query .ok)
run_plan good
r=$E2E_TMP/good.json
grep -q '^setup: 1 step(s) answered$' "$E2E_TMP/good.txt" || fail "the setup is not reported: $(head "$E2E_TMP/good.txt")"
grep -q '^teardown: 1 step(s) answered$' "$E2E_TMP/good.txt" || fail "the teardown is not reported"
sessions=$(json "$r" .summary.flows.sessions_intended)
completed=$(json "$r" .summary.flows.sessions_completed)
unfinished=$(json "$r" .summary.flows.sessions_unfinished)
assert_cmp "$sessions" ">=" 35 "20/s for 2 s"
assert_cmp "$(json "$r" .summary.flows.sessions_failed)" == 0 "no session failed"
assert_cmp "$((completed + unfinished))" == "$sessions" "every session completed or was still running at the end"
assert_cmp "$(($(lab_query .auth.logins) - logins))" == 1 "one login for the whole run: the setup's"
assert_cmp "$(lab_query .auth.unauthorized)" == 0 "every request carried the setup's token"
assert_cmp "$(($(lab_query .auth.authorized) - authorized))" ">=" "$((2 * completed + 1))" \
  "two authorized requests per completed session, and the teardown's"
assert_cmp "$(($(lab_query .ok) - ok_before))" == 1 "the teardown read the account page (the model's one request)"
assert_cmp "$(lab_query .auth.orders_found)" ">=" "$completed" "every completed session fetched its order"

# 2. and 3. A setup that fails stops the run before any load: exit 2, the step named, no results file, and the
# lab served only the setup's requests (DELTA: a login counts, a 404 for an unknown path does not).
refused() { # NAME DELTA EXPECTED-MESSAGE
  local before code=0
  before=$(load)
  "$OPENLOOP" run "$E2E_TMP/$1.yaml" --json "$E2E_TMP/$1.json" >"$E2E_TMP/$1.txt" 2>&1 || code=$?
  assert_cmp "$code" == 2 "$1: a failed setup exits 2 ($(cat "$E2E_TMP/$1.txt"))"
  grep -qF "$3" "$E2E_TMP/$1.txt" || fail "$1: the error does not say \"$3\": $(cat "$E2E_TMP/$1.txt")"
  [[ ! -e $E2E_TMP/$1.json ]] || fail "$1: a results file was written for a run that never started"
  assert_cmp "$(($(load) - before))" == "$2" "$1: the lab served the setup's request and nothing of the load"
  assert_cmp "$(lab_query .auth.orders_created)" == "$orders" "$1: no order was created"
}
orders=$(lab_query .auth.orders_created)
plan badpath /_lab/login '$.data.token'
refused badpath 1 "openloop run: $E2E_TMP/badpath.yaml:8:5: setup[1]: setup step 1 (request \"login\"): capture token: nothing at \$.data.token in login's response, status 200"
plan badlogin /_lab/logn
refused badlogin 0 "setup step 1 (request \"login\"): status 404 is outside the request's success range 100-399"

# 4. The setup's values are read-only: a session capturing the same name is refused before anything is sent.
plan readonly
sed -i 's/capture: \[{as: order_id, json: \$.id}\]/capture: [{as: order_id, json: $.id}, {as: token, json: $.id}]/' \
  "$E2E_TMP/readonly.yaml"
grep -qF '{as: token, json: $.id}]' "$E2E_TMP/readonly.yaml" || fail "the plan was not edited"
expect_usage "is captured by setup:, whose values every request reads and none changes" "$E2E_TMP/readonly.yaml"
# 5. The teardown runs after an interrupted load too: Ctrl-C once the setup has answered, exit 130, results written.
plan long
sed -i 's/^    duration: 2s$/    duration: 30s/' "$E2E_TMP/long.yaml"
grep -q '^    duration: 30s$' "$E2E_TMP/long.yaml" || fail "the plan was not lengthened"
ok_before=$(lab_query .ok)
"$OPENLOOP" run "$E2E_TMP/long.yaml" --json "$E2E_TMP/long.json" >"$E2E_TMP/long.txt" 2>"$E2E_TMP/long.err" &
interrupt_on_line $! "$E2E_TMP/long.err" '^setup: 1 step(s) answered$'
assert_cmp "$INTERRUPT_CODE" == 130 "an interrupted run exits 130 ($(cat "$E2E_TMP/long.err"))"
grep -q '^teardown: 1 step(s) answered$' "$E2E_TMP/long.err" || fail "no teardown after the interrupt: $(cat "$E2E_TMP/long.err")"
assert_cmp "$(($(lab_query .ok) - ok_before))" == 1 "the teardown read the account page"
[[ $(json "$E2E_TMP/long.json" .verdict.interrupted) == true ]] || fail "the results do not say interrupted"

pass "setup/teardown: $(jq -c '.summary.flows | {sessions_intended, sessions_completed}' "$r"), lab $(curl -sS --max-time 5 "$LAB_URL/_lab/stats" | jq -c .auth)"
