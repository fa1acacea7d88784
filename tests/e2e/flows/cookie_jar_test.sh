# The per-session cookie jar against `openloop lab --auth`: each session logs in (the lab answers Set-Cookie:
# lab_session=TOKEN; Path=/), then creates an order and fetches it sending no Authorization header: only the
# cookie the jar keeps carries the session. 1. With the jar (the default) every completed session's three steps
# succeed and the lab counts each order request as authorized, none refused. 2. With `cookies: off` the same plan
# sends no cookie: the lab refuses step 2 with 401, every session fails there, and the 401s are counted. 3. A
# step that gives its own Cookie header keeps it (a wrong one is refused though the jar holds the right one).
# 4. `cookies:` outside steps, or with a value other than on/off, is refused before anything is sent (exit 2).
# e2e: light (sessions at 20/s counted against the lab's own auth counters)
source "$OPENLOOP_E2E_LIB"
require_tools jq curl
start_lab --auth --workers 4 --service 1ms

# plan OUT COOKIES [ORDER_HEADERS]: the flow, `cookies: COOKIES` (or none when empty), the order steps' headers.
plan() {
  cat >"$1" <<YAML
target: $LAB_URL
requests:
  login: {method: POST, path: /_lab/login, body: '{"user": "ann"}'}
  create_order: {method: POST, path: /_lab/orders, body: '{"sku": 42}'${3:+, headers: $3}}
  get_order: {path: '/_lab/orders/{{order_id}}'${3:+, headers: $3}}
scenarios:
  shop:
    model: sessions
    session_rate: 20/s
    duration: 2s
    max_sessions: 100
${2:+    cookies: $2
}    steps:
      - request: login
        check: [{status: 200}]
      - request: create_order
        think: 10ms
        capture: [{as: order_id, json: \$.id}]
        check: [{status: 200}]
      - request: get_order
        check: [{status: 200}, {json: \$.ok, equals: true}]
YAML
}
source "$(dirname "$0")/flows_lib.sh"

# 1. The jar carries the session: no token is ever sent, and every order request is authorized.
plan "$E2E_TMP/jar.yaml" ""
run_plan jar
r=$E2E_TMP/jar.json
sessions=$(json "$r" .summary.flows.sessions_intended)
completed=$(json "$r" .summary.flows.sessions_completed)
unfinished=$(json "$r" .summary.flows.sessions_unfinished)
assert_cmp "$sessions" ">=" 30 "20/s for 2 s"
assert_cmp "$(json "$r" .summary.flows.sessions_failed)" == 0 "no session failed"
assert_cmp "$(json "$r" .summary.flows.sessions_dropped)" == 0 "no session dropped"
assert_cmp "$((completed + unfinished))" == "$sessions" "every session completed or was still running at the end"
assert_cmp "$completed" ">=" "$((sessions - sessions / 10 - 1))" "nearly every session completed"
[[ $(json_or_null "$r" .summary.flows.checks_failed) == null ]] || fail "no check failed: $(jq -c .summary.flows "$r")"
assert_cmp "$(json "$r" '.summary.counts.status_classes["4xx"] // 0')" == 0 "no 4xx"
assert_cmp "$(auth .unauthorized)" == 0 "the lab refused nothing: every order request carried the cookie"
assert_cmp "$(auth .authorized)" ">=" "$((2 * completed))" "two authorized requests per completed session"
assert_cmp "$(auth .orders_found)" ">=" "$completed" "each completed session fetched its order"
assert_cmp "$(auth .orders_missing)" == 0 "no order fetched that the lab did not hand out"

# 2. cookies: off: the same plan without the jar; step 2 gets 401, every session fails there, counted.
refused_before=$(auth .unauthorized)
plan "$E2E_TMP/off.yaml" off
run_plan off failing
r=$E2E_TMP/off.json
sessions=$(json "$r" .summary.flows.sessions_intended)
failed=$(json "$r" .summary.flows.sessions_failed)
unfinished=$(json "$r" .summary.flows.sessions_unfinished)
assert_cmp "$(json "$r" .summary.flows.sessions_completed)" == 0 "no session completed without its cookie"
assert_cmp "$((failed + unfinished))" == "$sessions" "every session failed or was still running at the end"
assert_cmp "$failed" ">=" "$((sessions - sessions / 10 - 1))" "nearly every session failed"
refused=$(($(auth .unauthorized) - refused_before))
assert_cmp "$refused" ">=" "$failed" "the lab refused one request per failed session"
assert_cmp "$refused" "<=" "$((failed + unfinished))" "and no more"
assert_cmp "$(json "$r" '.summary.counts.status_classes["4xx"]')" ">=" "$failed" "the 401s are counted"
assert_cmp "$(json "$r" '.summary.flows.steps[1].checks_failed')" ">=" "$failed" "step 2's status check failed"
grep -qF "no cookie jar (cookies: off)" <("$OPENLOOP" validate "$E2E_TMP/off.yaml" 2>&1) ||
  fail "validate does not say the jar is off: $("$OPENLOOP" validate "$E2E_TMP/off.yaml" 2>&1)"

# 3. A step's own Cookie header wins over the jar: a wrong session cookie is refused.
refused_before=$(auth .unauthorized)
plan "$E2E_TMP/own.yaml" "" "{Cookie: lab_session=not-a-token}"
run_plan own failing
r=$E2E_TMP/own.json
failed=$(json "$r" .summary.flows.sessions_failed)
assert_cmp "$(json "$r" .summary.flows.sessions_completed)" == 0 "no session completed with a wrong cookie"
assert_cmp "$failed" ">=" 1 "sessions failed"
assert_cmp "$(($(auth .unauthorized) - refused_before))" ">=" "$failed" "the lab refused the step's own cookie"

# 4. Refusals before anything is sent.
sed 's/^    cookies: off$/    cookies: maybe/' "$E2E_TMP/off.yaml" >"$E2E_TMP/maybe.yaml"
grep -q 'cookies: maybe' "$E2E_TMP/maybe.yaml" || fail "the plan was not edited"
expect_usage '"maybe" is not on or off; use on (a cookie jar per session, the default) or off' "$E2E_TMP/maybe.yaml"
cat >"$E2E_TMP/mix.yaml" <<YAML
target: $LAB_URL
requests:
  a: {path: /a}
scenarios:
  s: {model: closed, vus: 1, duration: 1s, request: a, cookies: off}
YAML
expect_usage 'a cookie jar belongs to a session'"'"'s steps' "$E2E_TMP/mix.yaml"
pass "cookie jar: $(jq -c '.summary.flows | {sessions_intended, sessions_completed}' "$E2E_TMP/jar.json"); off: $(jq -c '.summary.flows | {sessions_failed}' "$E2E_TMP/off.json"), lab $(curl -sS --max-time 5 "$LAB_URL/_lab/stats" | jq -c .auth)"
