# Per-session data rows against `openloop lab --auth --cache 100`: each session logs in with its row's user and
# fetches /users/{{user_id}} with the token it captured; the lab's cache counts each distinct path once as a miss,
# so its hits say whether a row went to two sessions. 1. `order: unique`, 5 rows, 10 sessions (10/s for 1 s, a
# constant schedule: exactly 10): 5 sessions run, 5 find no row and never start, named with their count in a
# warning and the verdict (INVALID); the 5 that ran are conserved; no path twice at the lab. 2. `order:
# sequential`: every session runs, the rows in turn, so the lab sees each path again. 3. The same unique split in
# `simulate` (virtual time), exact: 5 completed. 4. Refusals before anything is sent (exit 2, with the plan's
# file:line:column): a missing file, a step reading a column the file lacks, a ragged row.
# e2e: light (which rows sessions took at 10/s)
source "$OPENLOOP_E2E_LIB"
require_tools jq curl
start_lab --auth --workers 4 --service 1ms --cache 100
source "$(dirname "$0")/flows_lib.sh"

printf 'user_id,password\nu1,p1\nu2,p2\nu3,p3\nu4,p4\nu5,p5\n' >"$E2E_TMP/users.csv"

# plan NAME ORDER [FILE] [PATH]: the flow with `data: {file: FILE, order: ORDER}`, the second step's path PATH.
plan() {
  local path=${4:-}
  [[ -n $path ]] || path='/users/{{user_id}}'
  cat >"$E2E_TMP/$1.yaml" <<YAML
target: $LAB_URL
requests:
  login: {method: POST, path: /_lab/login, body: '{"user": "{{user_id}}", "password": "{{password}}"}'}
  me: {path: '$path', headers: {Authorization: 'Bearer {{token}}'}}
scenarios:
  shop:
    model: sessions
    session_rate: 10/s
    duration: 1s
    data: {file: ${3:-users.csv}, order: $2}
    steps:
      - request: login
        capture: [{as: token, json: \$.token}]
        check: [{status: 200}]
      - request: me
        check: [{status: 200}]
YAML
}

# 1. unique: five rows for ten sessions.
plan unique unique
code=0
"$OPENLOOP" run "$E2E_TMP/unique.yaml" --json "$E2E_TMP/unique.json" >"$E2E_TMP/unique.txt" 2>&1 || code=$?
r=$E2E_TMP/unique.json
accept_invalid_only_for "$code" "$r" '^([a-z-]+: )?send lateness' '^(shop: )?5 of 10 arriving sessions \(50\.00% > 1%\) found no data row left'
[[ $code == 3 ]] || fail "exit $code: 5 of 10 sessions without a row is INVALID ($(cat "$E2E_TMP/unique.txt"))"
assert_conserved "$r"
# The five without a row never started: not intended (as arrivals abandoned behind schedule are not), named in a
# warning and the verdict.
rowless=$(json "$r" '[.warnings[] | capture("sessions without a row: (?<n>[0-9]+) of 10 arriving sessions").n] | first')
assert_cmp "$rowless" == 5 "five sessions found no row"
assert_cmp "$(json "$r" .summary.flows.sessions_intended)" == 5 "five sessions started, one per row"
assert_cmp "$(json "$r" .summary.flows.sessions_dropped)" == 0 "none dropped by the sessions cap"
assert_cmp "$(json "$r" .summary.flows.sessions_failed)" == 0 "no session with a row failed"
bad=$(json "$r" '[.summary.flows, .intervals[].flows] | map(select(
  .sessions_intended != .sessions_completed + .sessions_failed + .sessions_dropped + .sessions_unfinished)) | length')
assert_cmp "$bad" == 0 "sessions conserved in the summary and every interval"
grep -qF "sessions without a row: 5 of 10 arriving sessions" "$E2E_TMP/unique.txt" ||
  fail "the summary does not say it: $(cat "$E2E_TMP/unique.txt")"
gets=$(json "$r" .summary.by_request.me.counts.completed)
assert_cmp "$(auth .logins)" == 5 "one login per row"
assert_cmp "$(lab_query .cache.hits)" == 0 "no user's path was asked twice: no row went to two sessions"
assert_cmp "$(lab_query .cache.misses)" == "$gets" "each fetch asked its own user's path"
assert_cmp "$gets" ">=" 1 "some sessions fetched their user"

# 2. sequential: the rows in turn, over and over: every session runs, and the paths come again.
first_misses=$(lab_query .cache.misses)
hits_before=$(lab_query .cache.hits)
plan sequential sequential
run_plan sequential
r=$E2E_TMP/sequential.json
assert_cmp "$(json "$r" .summary.flows.sessions_intended)" == 10 "every session started"
assert_cmp "$(json "$r" '[.warnings[] | select(test("without a row"))] | length')" == 0 "none without a row"
gets=$(json "$r" .summary.by_request.me.counts.completed)
hits=$(($(lab_query .cache.hits) - hits_before))
misses=$(($(lab_query .cache.misses) - first_misses))
assert_cmp "$((hits + misses))" == "$gets" "each fetch asked for a user's path"
assert_cmp "$((first_misses + misses))" "<=" 5 "five users' paths in all"
if [[ $(json "$r" .summary.flows.sessions_completed) == 10 ]]; then
  assert_cmp "$gets" == 10 "ten fetches over five rows"
  assert_cmp "$hits" ">=" 5 "each row's path asked again"
fi
if grep -qF "sessions without a row" "$E2E_TMP/sequential.txt"; then
  fail "a line for nothing: $(cat "$E2E_TMP/sequential.txt")"
fi

# 3. In virtual time the split is exact: `simulate` runs the same worker against the lab's model (one worker: rows
# 0..4 are its own), so 5 sessions complete and 5 are named without a row.
cat >"$E2E_TMP/sim.yaml" <<YAML
target: $LAB_URL
requests:
  me: {path: '/users/{{user_id}}', headers: {X-Password: '{{password}}'}}
scenarios:
  shop: {model: sessions, session_rate: 10/s, duration: 1s, data: {file: users.csv, order: unique}, steps: [me, me]}
YAML
code=0
"$OPENLOOP" simulate "$E2E_TMP/sim.yaml" --lab '--workers 4 --service 1ms' --json "$E2E_TMP/sim.json" \
  >"$E2E_TMP/sim.txt" 2>&1 || code=$?
assert_cmp "$code" == 3 "simulate: INVALID for the sessions without a row ($(cat "$E2E_TMP/sim.txt"))"
r=$E2E_TMP/sim.json
assert_conserved "$r"
assert_cmp "$(json "$r" .summary.flows.sessions_completed)" == 5 "simulate: five sessions completed"
assert_cmp "$(json "$r" .summary.flows.sessions_intended)" == 5 "simulate: five started"
assert_cmp "$(json "$r" '[.warnings[] | select(test("sessions without a row: 5 of 10 arriving sessions"))] | length')" \
  == 1 "simulate: the five without a row named"
assert_cmp "$(json "$r" '[.verdict.reasons[] | select(test("found no data row left"))] | length')" == 1 \
  "simulate: and in the verdict"

# 4. Refusals, nothing sent.
# load: what the lab served apart from its stats queries (logins, model paths, 401s).
load() { lab_query '.auth.logins + .auth.authorized + .auth.unauthorized + .ok + .errors'; }
load_before=$(load)
plan missing unique nobody.csv
expect_usage "missing.yaml:10:18: scenarios.shop.data.file: " "$E2E_TMP/missing.yaml"
grep -qF "nobody.csv" "$E2E_TMP/out.txt" || fail "the message names no file: $(cat "$E2E_TMP/out.txt")"
plan column unique users.csv '/users/{{email}}'
expect_usage 'unknown variable "email" in {{email}}; declared variables: token, user_id, password' "$E2E_TMP/column.yaml"
grep -qE "column.yaml:4:[0-9]+: requests.me.path" "$E2E_TMP/out.txt" || fail "no file:line:col: $(cat "$E2E_TMP/out.txt")"
printf 'user_id,password\nu1,p1\nu2\n' >"$E2E_TMP/ragged.csv"
plan ragged unique ragged.csv
expect_usage "ragged.csv:3: the row has 1 field(s); every row has the header's 2 (user_id, password)" "$E2E_TMP/ragged.yaml"
set +e
"$OPENLOOP" validate "$E2E_TMP/ragged.yaml" >"$E2E_TMP/validate.txt" 2>&1
code=$?
set -e
[[ $code == 2 ]] || fail "validate exit $code, expected 2: $(cat "$E2E_TMP/validate.txt")"
grep -qF "ragged.yaml:10:18: scenarios.shop.data.file: " "$E2E_TMP/validate.txt" ||
  fail "validate names no place: $(cat "$E2E_TMP/validate.txt")"
"$OPENLOOP" validate "$E2E_TMP/unique.yaml" >"$E2E_TMP/described.txt" 2>&1 ||
  fail "validate refused the good plan: $(cat "$E2E_TMP/described.txt")"
grep -qF "data: users.csv: 5 rows of {{user_id}}, {{password}}; order unique" "$E2E_TMP/described.txt" ||
  fail "validate does not describe the data: $(cat "$E2E_TMP/described.txt")"
assert_cmp "$(load)" == "$load_before" "nothing reached the lab from the refused plans"
pass "data rows: unique $(jq -c '.summary.flows | {sessions_intended, sessions_completed}' "$E2E_TMP/unique.json"), lab $(curl -sS --max-time 5 "$LAB_URL/_lab/stats" | jq -c '{auth: .auth.logins, cache: .cache}')"
