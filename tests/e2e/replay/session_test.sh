# --session-key against the lab: a session's next record waits for the response to its previous one (a cache
# miss the lab serves in 400 ms, so the wait is forced by the service, not hoped for by timing), sent at that
# response with it as its intended time; another session's record and a record without a session go at their
# own recorded times. Counted (delayed records, their delay), conserved, and the session's value (a cookie) never
# written anywhere. Without --session-key the same trace replays every record on its own time. Bad keys refused.
# e2e: light (a session's record held for a 400-ms response, counted)
source "$OPENLOOP_E2E_LIB"
require_tools jq awk
start_lab --workers 8 --cache 100 --hit 0 --miss 400ms
cd "$E2E_TMP"
# Session A: /a1 at 0 (a 400 ms miss), /a2 at 0.1; session B: /b1 at 0.15; no session: /n at 0.2 and /end at 2.0
# (the replay lasts past A's wait). Offsets are from the first record, t from an origin of 100 s.
cat >trace.jsonl <<'TRACE'
{"t": 100.0, "url": "/a1", "headers": {"Cookie": "sid=SECRETA; theme=dark"}}
{"t": 100.1, "url": "/a2", "headers": {"Cookie": "theme=dark; sid=SECRETA"}}
{"t": 100.15, "url": "/b1", "headers": {"Cookie": "sid=SECRETB"}}
{"t": 100.2, "url": "/n"}
{"t": 102.0, "url": "/end"}
TRACE
code=0
"$OPENLOOP" run --replay trace.jsonl --target "$LAB_URL" --session-key cookie:sid --threads 2 --json r.json \
  --log-requests log.jsonl >out.txt 2>&1 || code=$?
accept_invalid_only_for "$code" r.json '^send lateness'
assert_conserved r.json
assert_cmp "$(jq '.summary.counts.intended + .warmup.counts.intended' r.json)" == 5 "every record is one intended request"
assert_cmp "$(json r.json .summary.counts.ok)" == 5 "every record answered"
assert_cmp "$(lab_query .arrivals)" == 5 "the lab received each record once"
# The intended offsets from the first record, in order: B's and the session-less records at their recorded
# times exactly, A's second at A's first response (at least its 400 ms of service), not at its recorded 0.1 s.
jq -r .intended_s log.jsonl | sort -g | awk 'NR == 1 { t0 = $1 } { printf "%.6f\n", $1 - t0 }' >got.txt
assert_cmp "$(wc -l <got.txt)" == 5 "one log line per record"
assert_near "$(sed -n 2p got.txt)" 0.15 0.000002 "session B's record goes at its own time while A waits"
assert_near "$(sed -n 3p got.txt)" 0.2 0.000002 "a record without a session goes at its own time"
assert_cmp "$(sed -n 4p got.txt)" ">=" 0.4 "session A's second record is intended at its first one's response"
assert_cmp "$(sed -n 4p got.txt)" "<" 2.0 "and before the trace's last record"
# Its intended time is the response: A's first request ended there (the log's end of the first request).
a1_end=$(jq -r 'select(.intended_s == ($t0 | tonumber)) | .intended_s + .response_ms / 1000' \
  --arg t0 "$(jq -r .intended_s log.jsonl | sort -g | head -1)" log.jsonl)
a2=$(jq -r .intended_s log.jsonl | sort -g | sed -n 4p)
assert_near "$a2" "$a1_end" 0.002 "A's second record is intended when A's first response came"
# The counts, in the run's warnings (the summary's and the results'): one record delayed, by its wait.
note=$(json r.json '.warnings[] | select(startswith("replay sessions: "))')
[[ $note =~ ^replay\ sessions:\ ([0-9]+)\ records\ delayed.*,\ ([0-9.]+)\ s\ in\ all\;\ at\ most\ ([0-9]+)\ sessions ]] ||
  fail "the results' warnings count the sessions' delays: $note"
delayed=${BASH_REMATCH[1]} delay=${BASH_REMATCH[2]} open=${BASH_REMATCH[3]} # before another =~ resets them
assert_cmp "$delayed" == 1 "one record delayed by its session"
assert_near "$delay" "$(awk -v a="$(sed -n 4p got.txt)" 'BEGIN { print a - 0.1 }')" 0.000003 \
  "the delay is the delayed record's intended time minus its absolute time"
assert_cmp "$open" ">=" 1 "sessions were open"
# The same counts as the results' fields, which `report` reads back.
assert_cmp "$(json r.json .replay_sessions.delayed)" == 1 "replay_sessions.delayed"
assert_near "$(json r.json .replay_sessions.delay_s)" "$delay" 0.000001 "replay_sessions.delay_s"
assert_cmp "$(json r.json .replay_sessions.sessions_peak)" == "$open" "replay_sessions.sessions_peak"
assert_cmp "$(json r.json .replay_sessions.dropped)" == 0 "replay_sessions.dropped"
"$OPENLOOP" report r.json --format json -o again.json >/dev/null 2>&1 || fail "report r.json --format json: exit $?"
[[ $(jq -c .replay_sessions again.json) == $(jq -c .replay_sessions r.json) ]] ||
  fail "report writes the counts it read: $(jq -c .replay_sessions again.json)"
[[ $(json r.json .plan.replay.session_key) == cookie:sid ]] || fail "the plan names the key (not its values)"
assert_cmp "$(json r.json .plan.replay.records_with_session)" == 3 "three records have a session"
grep -qF "warning: $note" out.txt || fail "the summary says the delay: $(cat out.txt)"
for f in r.json log.jsonl out.txt; do
  ! grep -q SECRET "$f" || fail "a session's cookie reached $f"
done
pass "--session-key: a session's record waits for its previous response; other records keep their times; counted"

# The default: every record on its own time, A's second at 0.1 s; no session counts in the results.
code=0
"$OPENLOOP" run --replay trace.jsonl --target "$LAB_URL" --json open.json --log-requests open.jsonl >out.txt 2>&1 ||
  code=$?
accept_invalid_only_for "$code" open.json '^send lateness'
jq -r .intended_s open.jsonl | sort -g | awk 'NR == 1 { t0 = $1 } { printf "%.6f\n", $1 - t0 }' >got.txt
assert_near "$(sed -n 2p got.txt)" 0.1 0.000002 "without --session-key A's second record goes at its own time"
[[ $(json_or_null open.json '[.warnings[] | select(startswith("replay sessions"))] | length') == 0 ]] ||
  fail "no session counts without a key"
[[ $(json_or_null open.json .replay_sessions) == null ]] || fail "no replay_sessions without a key"
pass "without --session-key every record is independent (open)"

expect_usage '--session-key: "user" is not a session key; use ip' --replay trace.jsonl --target "$LAB_URL" \
  --session-key user
expect_usage '--session-key: "header:" is not a session key' --replay trace.jsonl --target "$LAB_URL" \
  --session-key header:
mkdir -p plans
printf 'target: %s\nscenarios:\n  r:\n    model: open\n    arrival: {replay: ../trace.jsonl, session_key: cookie}\n' \
  "$LAB_URL" >plans/p.yaml
code=0
"$OPENLOOP" run plans/p.yaml >bad.txt 2>&1 || code=$?
[[ $code == 2 ]] || fail "a bad session_key in a plan: exit $code, expected 2 ($(cat bad.txt))"
grep -qF 'p.yaml:5:' bad.txt && grep -qF 'scenarios.r.arrival.session_key: "cookie" is not a session key' bad.txt ||
  fail "the plan's place and the key named: $(cat bad.txt)"
assert_cmp "$(lab_query .arrivals)" == 10 "nothing sent after a refusal"
pass "bad session keys refused with the flag or the plan's place (exit 2), nothing sent"
