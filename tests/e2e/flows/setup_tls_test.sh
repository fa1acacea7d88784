# A plan's setup: over TLS: nginx with a self-signed certificate proxies https to `openloop lab --auth` (the lab
# serves plain HTTP only). 1. With --cacert the setup's login goes over https, verified; its token reaches every
# session: the lab counts one login for the whole run, every order request authorized, none refused. 2. Without
# --cacert the certificate fails verification at the setup: the run stops before any load with exit 4 and a
# message naming the setup step and the certificate, and the lab sees nothing.
# e2e: light (setup and session counts over TLS at 20/s)
source "$OPENLOOP_E2E_LIB"
require_tools jq curl nginx openssl
start_lab --auth --workers 4 --service 1ms
source "$(dirname "$0")/flows_lib.sh"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost -addext subjectAltName=DNS:localhost \
  -keyout "$E2E_TMP/key.pem" -out "$E2E_TMP/cert.pem" 2>/dev/null
tls_port=$(free_port)
# Every path (a regex location wins over the config's `location /`) goes to the lab, Authorization included.
start_nginx "$tls_port" "ssl_certificate $E2E_TMP/cert.pem; ssl_certificate_key $E2E_TMP/key.pem;
    location ~ . { proxy_pass $LAB_URL; proxy_http_version 1.1; proxy_set_header Connection \"\"; }" ssl

cat >"$E2E_TMP/tls.yaml" <<YAML
target: https://localhost:$tls_port
requests:
  login: {method: POST, path: /_lab/login, body: '{"user": "ann"}'}
  create_order: {method: POST, path: /_lab/orders, body: '{"sku": 42}', headers: {Authorization: 'Bearer {{token}}'}}
  get_order: {path: '/_lab/orders/{{order_id}}', headers: {Authorization: 'Bearer {{token}}'}}
setup:
  - request: login
    capture: [{as: token, json: \$.token}]
    check: [{status: 200}]
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

# 2 first: a certificate the client does not trust stops the setup, and nothing reaches the lab.
code=0
"$OPENLOOP" run "$E2E_TMP/tls.yaml" --json "$E2E_TMP/untrusted.json" >"$E2E_TMP/untrusted.txt" 2>&1 || code=$?
assert_cmp "$code" == 4 "an unverified certificate at the setup exits 4 ($(cat "$E2E_TMP/untrusted.txt"))"
grep -qF 'setup step 1 (request "login")' "$E2E_TMP/untrusted.txt" || fail "the step is not named: $(cat "$E2E_TMP/untrusted.txt")"
grep -qi 'certificate verify failed' "$E2E_TMP/untrusted.txt" || fail "the certificate is not named: $(cat "$E2E_TMP/untrusted.txt")"
[[ ! -e $E2E_TMP/untrusted.json ]] || fail "a results file was written for a run that never started"
assert_cmp "$(auth .logins)" == 0 "no login reached the lab"
assert_cmp "$(auth .orders_created)" == 0 "nor anything of the load"

# 1. Trusted: the setup logs in over https once, and every session's requests carry its token.
code=0
"$OPENLOOP" run "$E2E_TMP/tls.yaml" --cacert "$E2E_TMP/cert.pem" --json "$E2E_TMP/tls.json" >"$E2E_TMP/tls.txt" 2>&1 ||
  code=$?
r=$E2E_TMP/tls.json
accept_invalid_only_for "$code" "$r" '^([a-z-]+: )?send lateness'
assert_conserved "$r"
grep -q '^setup: 1 step(s) answered$' "$E2E_TMP/tls.txt" || fail "the setup is not reported: $(head "$E2E_TMP/tls.txt")"
sessions=$(json "$r" .summary.flows.sessions_intended)
completed=$(json "$r" .summary.flows.sessions_completed)
unfinished=$(json "$r" .summary.flows.sessions_unfinished)
assert_cmp "$sessions" ">=" 35 "20/s for 2 s"
assert_cmp "$(json "$r" .summary.flows.sessions_failed)" == 0 "no session failed"
assert_cmp "$((completed + unfinished))" == "$sessions" "every session completed or was still running at the end"
assert_cmp "$(auth .logins)" == 1 "one login for the whole run: the setup's, over https"
assert_cmp "$(auth .unauthorized)" == 0 "every request carried the setup's token"
assert_cmp "$(auth .authorized)" ">=" "$((2 * completed))" "two authorized requests per completed session"
assert_cmp "$(auth .orders_found)" ">=" "$completed" "every completed session fetched its order"
assert_cmp "$(json "$r" '.summary.counts.status_classes["4xx"] // 0')" == 0 "no 4xx"
pass "setup over TLS: $(jq -c '.summary.flows | {sessions_intended, sessions_completed}' "$r"), lab $(curl -sS --max-time 5 "$LAB_URL/_lab/stats" | jq -c .auth)"
