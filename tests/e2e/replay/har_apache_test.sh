# A generated HAR file (600 entries over 3 s, pretty-printed, a response body and an HTTP/2 pseudo-header in each,
# credentials in headers and the query) and an Apache log of the same requests (%{msec}t, the combined fields)
# replayed at --speed 4 against the lab: every record sent and counted by the lab, the schedule the trace's, no
# secret of the traces in any output; a document that is not HAR refused before anything is sent.
# e2e: parallel-safe (counts, and intended times from the trace)
source "$OPENLOOP_E2E_LIB"
require_tools jq awk
har=$E2E_TMP/rec.har
apache=$E2E_TMP/access_log
# t: 600 stamps over 3 s (some within the same millisecond); the HAR in file order, the Apache log as written.
awk 'BEGIN { srand(11); for (i = 0; i < 600; i++) printf "%.3f\n", rand() * 3 }' | sort -g >"$E2E_TMP/t.txt"
awk 'BEGIN { print "{\n  \"log\": {\n    \"version\": \"1.2\",\n    \"creator\": {\"name\": \"test\", \"version\": \"1\"},\n    \"entries\": [" }
  { ms = int($1 * 1000 + 0.5); s = int(ms / 1000); f = ms % 1000
    printf "%s      {\n        \"startedDateTime\": \"2026-12-01T10:00:%02d.%03d+00:00\",\n", (NR > 1 ? ",\n" : ""), s, f
    printf "        \"request\": {\"method\": \"GET\", \"url\": \"https://prod.example/item/%d?api_key=SECRET%d\",\n", NR, NR
    printf "          \"headers\": [{\"name\": \":authority\", \"value\": \"prod.example\"}, {\"name\": \"Authorization\", \"value\": \"Bearer SECRET\"}, {\"name\": \"X-Rec\", \"value\": \"%d\"}]},\n", NR
    printf "        \"response\": {\"status\": 200, \"content\": {\"size\": 9, \"text\": \"{\\\"a\\\": \\\"]}\\\"}\"}}\n      }" }
  END { print "\n    ]\n  }\n}" }' "$E2E_TMP/t.txt" >"$har"
assert_cmp "$(jq '.log.entries | length' "$har")" == 600 "the HAR is a JSON document of 600 entries"
awk '{ ms = int($1 * 1000 + 0.5) + 1764583200000
  printf "10.0.0.%d - - %.0f \"GET /item/%d?api_key=SECRET HTTP/1.1\" 200 9 \"-\" \"agent \\\"x\\\"\" \"sid=SECRET\"\n", NR % 7, ms, NR }' \
  "$E2E_TMP/t.txt" >"$apache"
start_lab
run_replay() {  # name, then run's flags
  local name=$1 code=0
  shift
  "$OPENLOOP" run --target "$LAB_URL" --speed 4 --json "$E2E_TMP/$name.json" --log-requests "$E2E_TMP/$name.log" \
    "$@" >"$E2E_TMP/$name.txt" 2>&1 || code=$?
  accept_invalid_only_for "$code" "$E2E_TMP/$name.json" '^send lateness'
  assert_conserved "$E2E_TMP/$name.json"
  assert_cmp "$(jq '.summary.counts.intended + .warmup.counts.intended' "$E2E_TMP/$name.json")" == 600 \
    "$name: every record is one intended request"
  assert_cmp "$(json "$E2E_TMP/$name.json" .plan.replay.records)" == 600 "$name: the results record 600 records"
  # The schedule: the intended offsets are the trace's / 4, to the log's microsecond.
  awk 'NR == 1 { t0 = $1 } { printf "%.6f\n", ($1 - t0) / 4 }' "$E2E_TMP/t.txt" >"$E2E_TMP/want.txt"
  jq -r '.intended_s' "$E2E_TMP/$name.log" | sort -g | awk 'NR == 1 { t0 = $1 } { printf "%.6f\n", $1 - t0 }' \
    >"$E2E_TMP/got.txt"
  worst=$(paste "$E2E_TMP/want.txt" "$E2E_TMP/got.txt" | awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > m) m = d } END { printf "%.6f", m }')
  assert_cmp "$(wc -l <"$E2E_TMP/got.txt")" == 600 "$name: one log line per record"
  assert_cmp "$worst" "<=" 0.000002 "$name: intended times follow the trace / speed (worst difference, s)"
  for f in "$E2E_TMP/$name.json" "$E2E_TMP/$name.log" "$E2E_TMP/$name.txt"; do
    ! grep -q SECRET "$f" || fail "$name: a secret of the trace reached $f"
  done
}
run_replay har --replay "$har" --redact-param api_key
assert_cmp "$(lab_query .arrivals)" == 600 "the lab received exactly the HAR's entries"
[[ $(json "$E2E_TMP/har.json" .plan.replay.format) == auto ]] || fail "the format was detected, not named"
assert_cmp "$(json "$E2E_TMP/har.json" .plan.replay.credentials_dropped)" == 600 "every entry's Authorization dropped"
assert_cmp "$(json "$E2E_TMP/har.json" .plan.replay.params_redacted)" == 600 "every entry's api_key redacted"
pass "HAR replayed at 4x: every entry sent on its schedule, counted by the lab, secrets dropped"

run_replay apache --replay "$apache" --replay-format apache --redact-param api_key \
  --replay-log-format '%h %l %u %{msec}t "%r" %>s %b "%{Referer}i" "%{User-Agent}i" "%{Cookie}i"'
assert_cmp "$(lab_query .arrivals)" == 1200 "the lab received exactly the Apache log's requests too"
[[ $(json "$E2E_TMP/apache.json" .plan.replay.seconds_spread) == false ]] || fail "%{msec}t stamps are not spread"
assert_cmp "$(json "$E2E_TMP/apache.json" .plan.replay.credentials_dropped)" == 600 "every line's Cookie dropped"
pass "Apache log (%{msec}t) replayed at 4x: every line sent on its schedule, counted by the lab, secrets dropped"

# Not a HAR document: refused with the file named, nothing sent.
printf '{"log": {"version": "1.2"}}\n' >"$E2E_TMP/bad.har"
expect_usage 'bad.har:1: not a HAR document: its "log" has no "entries" member' --replay "$E2E_TMP/bad.har" \
  --target "$LAB_URL"
expect_usage "--replay-log-format: applies to nginx and apache logs, not to --replay-format har" \
  --replay "$har" --replay-format har --replay-log-format '%h' --target "$LAB_URL"
expect_usage "%J (column 4) is not an Apache log directive" --replay "$apache" --replay-format apache \
  --replay-log-format '%h %J' --target "$LAB_URL"
assert_cmp "$(lab_query .arrivals)" == 1200 "nothing is sent after a usage error"
pass "a document that is not HAR and bad Apache formats refused before any load"
