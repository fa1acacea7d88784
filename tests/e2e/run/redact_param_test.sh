# --redact-param NAME: a query parameter the user names is written down nowhere, beside the default secrets
# (api_key, token, ...): run (results JSON, HTML and its title, .hlog, JUnit, request log, the terminal, `report`),
# a targets file's request names, ramp and simulate; without the flag the same value is written (the control).
# e2e: parallel-safe (what is written down; ramp and simulate in virtual time)
source "$OPENLOOP_E2E_LIB"
start_lab --workers 4 --service 1ms
cd "$E2E_TMP"
secret=s3ssionH
no_secret_in() {
  if grep -l "$secret" "$@"; then fail "$secret was written to the file(s) above"; fi
}

# The control: without --redact-param, session_id is no secret and its value is written down.
code=0
"$OPENLOOP" run "$LAB_URL/items?session_id=$secret&q=visible" --rate 20/s -d 1s --threads 1 --json c.json \
  >c.txt 2>&1 || code=$?
accept_invalid_only_for "$code" c.json 'send lateness' '^generator CPU '
grep -q "$secret" c.json || fail "the control run's target lacks session_id's value: $(json c.json .plan.target)"

code=0
"$OPENLOOP" run "$LAB_URL/items?session_id=$secret&q=visible&token=$secret" --redact-param session_id \
  --rate 20/s -d 1s --threads 1 --json r.json --html r.html --hlog r.hlog --junit r.xml --log-requests r.log \
  >out.txt 2>err.txt || code=$?
accept_invalid_only_for "$code" r.json 'send lateness' '^generator CPU '
[[ $(json r.json .summary.counts.ok) == 20 ]] || fail "the requests with their query were sent and answered"
[[ -s r.log ]] || fail "the request log was written"
"$OPENLOOP" report r.json >report.txt 2>&1
"$OPENLOOP" report r.json --format html -o report.html >/dev/null 2>&1
no_secret_in out.txt err.txt r.json r.html r.hlog r.xml r.log report.txt report.html
[[ $(json r.json .plan.target) == "$LAB_URL/items?session_id=[redacted]&q=visible&token=[redacted]" ]] ||
  fail "the target is shown with the named parameter and the default secret redacted: $(json r.json .plan.target)"
pass "run: --redact-param's parameter in no output"

# A targets file: each request is named after its target, which shows the named parameter redacted.
printf 'GET %s/a?session_id=%s\nGET %s/b?Session_ID=%s&q=1\n' "$LAB_URL" "$secret" "$LAB_URL" "$secret" >targets.txt
code=0
"$OPENLOOP" run --targets targets.txt --redact-param session_id --rate 20/s -d 1s --threads 1 --json t.json \
  --html t.html --log-requests t.log >out.txt 2>err.txt || code=$?
accept_invalid_only_for "$code" t.json 'send lateness' '^generator CPU '
no_secret_in out.txt err.txt t.json t.html t.log
grep -qF 'GET /b?Session_ID=[redacted]&q=1' t.json || fail "a target's name shows the parameter redacted (any case)"
pass "targets file: the requests' names redacted"

# ramp and simulate: nothing is sent (a simulated service), the target written down redacted.
url="http://127.0.0.1:9/x?session_id=$secret"
"$OPENLOOP" ramp "$url" --redact-param session_id --simulate '--workers 4 --service 5ms' --from 100/s \
  --step-add 100/s --to 200/s --hold 2s --warmup 0s --json ramp.json --html ramp.html --junit ramp.xml \
  >out.txt 2>err.txt || fail "ramp --simulate exit $?: $(tail -n 5 err.txt)"
no_secret_in out.txt err.txt ramp.json ramp.html ramp.xml
grep -qF 'session_id=[redacted]' ramp.json || fail "the ramp's JSON names its target, redacted"
"$OPENLOOP" simulate "$url" --redact-param session_id --rate 50/s -d 2s --json s.json --html s.html --hlog s.hlog \
  --junit s.xml --log-requests s.log >out.txt 2>err.txt || fail "simulate exit $?: $(tail -n 5 err.txt)"
no_secret_in out.txt err.txt s.json s.html s.hlog s.xml s.log
[[ $(json s.json .plan.target) == "http://127.0.0.1:9/x?session_id=[redacted]" ]] ||
  fail "the simulated run's target: $(json s.json .plan.target)"
pass "ramp and simulate: --redact-param's parameter in no output"
