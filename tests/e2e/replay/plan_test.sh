# A replay as a plan file's arrival: a scenario `arrival: {replay: FILE, speed: 2}` beside an ordinary open
# scenario, the trace found relative to the plan file (run from another folder): validate describes it, the run
# sends exactly the trace's records plus the other scenario's, conserved, counted by the lab; a looped replay sends
# the number of records its passes put before the end; bad values refused by validate and run with
# file:line:column, nothing sent.
# e2e: parallel-safe (counts, and intended times from the trace)
source "$OPENLOOP_E2E_LIB"
require_tools jq awk
mkdir -p "$E2E_TMP/plans" "$E2E_TMP/traces" "$E2E_TMP/elsewhere"
# 600 records over 3 s (bursty: clustered around 6 centres), origin 500 s; every 5th a POST with a body.
awk 'BEGIN { srand(11); for (i = 0; i < 600; i++) { c = int(rand() * 6); printf "%.6f\n", 500 + c * 0.5 + rand() * 0.5 } }' |
  sort -g | awk '{ if (NR % 5 == 0) printf "{\"t\": %s, \"method\": \"POST\", \"url\": \"/item/%d\", \"body\": \"x\"}\n", $1, NR
                   else printf "{\"t\": %s, \"url\": \"/item/%d\"}\n", $1, NR }' >"$E2E_TMP/traces/t.jsonl"
assert_cmp "$(wc -l <"$E2E_TMP/traces/t.jsonl")" == 600 "the trace has 600 records"
# Ten records 100 ms apart: one pass spans 0.9 s, a loop's period is 1 s (span + mean gap).
awk 'BEGIN { for (i = 0; i < 10; i++) printf "{\"t\": %.1f, \"url\": \"/loop/%d\"}\n", i / 10, i }' >"$E2E_TMP/traces/ten.jsonl"
start_lab
plan=$E2E_TMP/plans/plan.yaml
cat >"$plan" <<PLAN
target: $LAB_URL
requests:
  home: GET /
scenarios:
  replayed:
    model: open
    arrival: {replay: ../traces/t.jsonl, format: jsonl, speed: 2}
  steady: {model: open, rate: 20/s, duration: 1s, request: home}
PLAN
cd "$E2E_TMP/elsewhere"
"$OPENLOOP" validate "$plan" >validate.txt 2>&1 || fail "validate refused the plan: $(cat validate.txt)"
grep -q "replayed: OPEN, replay of .*traces/t.jsonl (jsonl): 600 records over 1\.[0-9]*s, speed 2, ~600 in all" \
  validate.txt || fail "validate describes the replay: $(cat validate.txt)"
grep -q "each record's own" validate.txt || fail "validate says the trace gives the requests: $(cat validate.txt)"
code=0
"$OPENLOOP" run "$plan" --threads 2 --json r.json >out.txt 2>&1 || code=$?
accept_invalid_only_for "$code" r.json '^([a-z-]+: )?send lateness'
assert_conserved r.json
assert_conserved r.json '[.scenarios[].summary.counts, .scenarios[].intervals[].counts]'
replayed=$(json r.json '.scenarios[] | select(.name == "replayed")')
assert_cmp "$(jq '.summary.counts.intended + .warmup.counts.intended' <<<"$replayed")" == 600 \
  "the replayed scenario intends exactly the trace's records"
assert_cmp "$(jq -e '.summary.counts.ok' <<<"$replayed")" == 600 "every record answered"
assert_cmp "$(jq -e '.plan.replay.records' <<<"$replayed")" == 600 "the scenario's plan records the replay"
[[ $(jq -r '.plan.arrival' <<<"$replayed") == replay ]] || fail "the scenario's arrivals are a replay"
assert_cmp "$(json r.json '.summary.counts.intended + .warmup.counts.intended')" == 620 "600 records + 20/s for 1 s"
assert_cmp "$(lab_query .arrivals)" == 620 "the lab received exactly those"
pass "a plan file's replay scenario: described, every record sent once, conserved, beside another scenario"

cat >"$E2E_TMP/plans/loop.yaml" <<PLAN
target: $LAB_URL
scenarios:
  looped: {model: open, duration: 2050ms, arrival: {replay: ../traces/ten.jsonl, loop: true}}
PLAN
code=0
"$OPENLOOP" run "$E2E_TMP/plans/loop.yaml" --json loop.json >out.txt 2>&1 || code=$?
accept_invalid_only_for "$code" loop.json '^([a-z-]+: )?send lateness'
assert_conserved loop.json
# Offsets 0..0.9 s, 1.0..1.9 s and 2.0 s are before the end at 2.05 s: 21 records.
assert_cmp "$(json loop.json '.summary.counts.intended + .warmup.counts.intended')" == 21 \
  "two passes and the third's first record before the end"
assert_cmp "$(lab_query .arrivals)" == 641 "the lab received the 21 as well"
pass "a looped replay in a plan file: each pass shifted by its period, cut at the duration; no requests section needed"

# Bad values: exit 2 from validate and run, the plan file's place named, nothing sent.
expect_plan_usage() {
  local want=$1 body=$2 cmd
  printf 'target: %s\nscenarios:\n  r:\n%s\n' "$LAB_URL" "$body" >"$E2E_TMP/plans/bad.yaml"
  for cmd in validate run; do
    code=0
    "$OPENLOOP" "$cmd" "$E2E_TMP/plans/bad.yaml" >bad.txt 2>&1 || code=$?
    [[ $code == 2 ]] || fail "$cmd: exit $code, expected 2 for: $body ($(cat bad.txt))"
    grep -qF -- "$want" bad.txt || fail "$cmd: the message lacks '$want': $(cat bad.txt)"
  done
}
expect_plan_usage "bad.yaml:5:23: scenarios.r.arrival.replay: $E2E_TMP/plans/../traces/missing.jsonl: cannot open" \
  $'    model: open\n    arrival: {replay: ../traces/missing.jsonl}'
grep -q "missing.jsonl: cannot open" bad.txt || fail "the missing trace is named: $(cat bad.txt)"
expect_plan_usage 'scenarios.r.arrival.format: "csv" is not a trace format; use auto, nginx, apache, har or jsonl' \
  $'    model: open\n    arrival: {replay: ../traces/t.jsonl, format: csv}'
expect_plan_usage 'scenarios.r.arrival.speed: "0" is not accepted' \
  $'    model: open\n    arrival: {replay: ../traces/t.jsonl, speed: 0}'
expect_plan_usage 'scenarios.r.arrival: unknown key "speeed"; a replay arrival accepts replay, format' \
  $'    model: open\n    arrival: {replay: ../traces/t.jsonl, speeed: 2}'
expect_plan_usage 'scenarios.r.rate: not with a replay arrival' \
  $'    model: open\n    rate: 10/s\n    arrival: {replay: ../traces/t.jsonl}'
expect_plan_usage 'scenarios.r.duration: a replay lasts its trace' \
  $'    model: open\n    duration: 1s\n    arrival: {replay: ../traces/t.jsonl}'
expect_plan_usage 'no duration; a looped replay lasts duration' \
  $'    model: open\n    arrival: {replay: ../traces/t.jsonl, loop: true}'
expect_plan_usage 'a replay is an open scenario' \
  $'    model: sessions\n    session_rate: 1/s\n    duration: 1s\n    arrival: {replay: ../traces/t.jsonl}'
sed '3s/.*/{"t": 500.1, "url": "no-slash"}/' "$E2E_TMP/traces/t.jsonl" >"$E2E_TMP/traces/bad.jsonl"
expect_plan_usage 'scenarios.r.arrival.replay: ' $'    model: open\n    arrival: {replay: ../traces/bad.jsonl}'
# One wording: the trace's line and its error as run --replay says them, with the arrival's key for skipping.
line_error='bad.jsonl:3: url "no-slash": expected a path starting with '"'/'"' or an http(s):// URL'
grep -qF "$line_error (skip_bad: true counts and skips such lines)" bad.txt ||
  fail "the trace's bad line is named with the plan's key: $(cat bad.txt)"
expect_usage "--replay: $E2E_TMP/traces/$line_error (--skip-bad counts and skips such lines)" \
  --replay "$E2E_TMP/traces/bad.jsonl" --target "$LAB_URL"
assert_cmp "$(lab_query .arrivals)" == 641 "nothing is sent after a refused plan"
pass "a replay arrival's bad values refused with the plan's file:line:column (and the trace's line), nothing sent"
