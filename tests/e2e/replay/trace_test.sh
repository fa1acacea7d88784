# openloop trace convert, sort and inspect: a HAR converted to JSONL (credentials dropped, a parameter redacted)
# and replayed against the lab on the HAR's own schedule; a combined nginx log converted with a seed replays
# exactly as the log does with that seed; a shuffled log sorted by time (the same lines); a trace inspected (its
# counts, endpoints, dispersion); bad input refused with exit 2 and nothing written.
# e2e: parallel-safe (intended times follow the trace; files converted)
source "$OPENLOOP_E2E_LIB"
require_tools jq awk
# A HAR of 300 entries over 3 s: an Authorization header and an api_key in every URL.
awk 'BEGIN { srand(3); for (i = 0; i < 300; i++) printf "%.3f\n", rand() * 3 }' | sort -g >"$E2E_TMP/t.txt"
awk 'BEGIN { print "{\"log\": {\"version\": \"1.2\", \"entries\": [" }
  { ms = int($1 * 1000 + 0.5); printf "%s{\"startedDateTime\": \"2026-12-01T10:00:%02d.%03dZ\", ", (NR > 1 ? ",\n" : ""), int(ms / 1000), ms % 1000
    printf "\"request\": {\"method\": \"GET\", \"url\": \"https://prod.example/item/%d?api_key=SECRET\", ", NR
    printf "\"headers\": [{\"name\": \"Authorization\", \"value\": \"Bearer SECRET\"}]}, \"response\": {\"status\": %d}}", (NR % 10 ? 200 : 503) }
  END { print "]}}" }' "$E2E_TMP/t.txt" >"$E2E_TMP/rec.har"
"$OPENLOOP" trace convert "$E2E_TMP/rec.har" -o "$E2E_TMP/rec.jsonl" --redact-param api_key >"$E2E_TMP/c.txt" 2>&1 ||
  fail "convert exit $?: $(cat "$E2E_TMP/c.txt")"
assert_cmp "$(wc -l <"$E2E_TMP/rec.jsonl")" == 300 "one JSONL line per HAR entry"
! grep -q SECRET "$E2E_TMP/rec.jsonl" "$E2E_TMP/c.txt" || fail "a secret of the HAR reached the converted trace"
grep -q 'dropped from 300 records' "$E2E_TMP/c.txt" || fail "convert says what it dropped: $(cat "$E2E_TMP/c.txt")"
assert_cmp "$(jq -s 'map(select(.status == 503)) | length' "$E2E_TMP/rec.jsonl")" == 30 "the statuses kept"
start_lab
code=0
"$OPENLOOP" run --replay "$E2E_TMP/rec.jsonl" --target "$LAB_URL" --speed 4 --json "$E2E_TMP/r.json" \
  --log-requests "$E2E_TMP/r.log" >"$E2E_TMP/r.txt" 2>&1 || code=$?
accept_invalid_only_for "$code" "$E2E_TMP/r.json" '^send lateness'
assert_conserved "$E2E_TMP/r.json"
assert_cmp "$(lab_query .arrivals)" == 300 "the lab received exactly the converted trace's records"
awk 'NR == 1 { t0 = $1 } { printf "%.6f\n", ($1 - t0) / 4 }' "$E2E_TMP/t.txt" >"$E2E_TMP/want.txt"
jq -r '.intended_s' "$E2E_TMP/r.log" | sort -g | awk 'NR == 1 { t0 = $1 } { printf "%.6f\n", $1 - t0 }' >"$E2E_TMP/got.txt"
assert_cmp "$(wc -l <"$E2E_TMP/got.txt")" == 300 "one log line per record"
worst=$(paste "$E2E_TMP/want.txt" "$E2E_TMP/got.txt" | awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > m) m = d } END { printf "%.6f", m }')
assert_cmp "$worst" "<=" 0.000002 "the converted trace keeps the HAR's schedule (worst difference, s)"
pass "HAR converted to JSONL (secrets gone) and replayed on the HAR's schedule, counted by the lab"

# A combined log (one-second stamps): converted with --seed 3, the JSONL's times are the log's spread by seed 3.
awk '{ s = 36 + int($1); printf "10.0.0.1 - - [01/Dec/2026:10:00:%02d +0000] \"GET /p/%d HTTP/1.1\" 200 5 \"-\" \"ua\"\n", s, NR }' \
  "$E2E_TMP/t.txt" >"$E2E_TMP/combined.log"
printf '10.0.0.1 - - [01/Dec/2026:10:00:37 +0000] "" 400 0 "-" "-"\n' >>"$E2E_TMP/combined.log"
"$OPENLOOP" trace convert "$E2E_TMP/combined.log" -o "$E2E_TMP/combined.jsonl" --seed 3 >"$E2E_TMP/c2.txt" 2>&1 ||
  fail "convert exit $?: $(cat "$E2E_TMP/c2.txt")"
grep -q '1 empty request lines left out' "$E2E_TMP/c2.txt" || fail "convert says the empty request line: $(cat "$E2E_TMP/c2.txt")"
grep -q 'spread within its second' "$E2E_TMP/c2.txt" || fail "convert says the stamps were spread"
for source in combined.log combined.jsonl; do
  "$OPENLOOP" run --replay "$E2E_TMP/$source" --target "$LAB_URL" --speed 10 --seed 3 --log-requests "$E2E_TMP/$source.req" \
    --json "$E2E_TMP/$source.json" >"$E2E_TMP/$source.txt" 2>&1 || true
  jq -r '.intended_s' "$E2E_TMP/$source.req" | sort -g | awk 'NR == 1 { t0 = $1 } { printf "%.6f\n", $1 - t0 }' \
    >"$E2E_TMP/$source.off"
done
assert_cmp "$(wc -l <"$E2E_TMP/combined.log.off")" == 300 "the log replayed whole"
worst=$(paste "$E2E_TMP/combined.log.off" "$E2E_TMP/combined.jsonl.off" | awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > m) m = d } END { printf "%.6f", m }')
assert_cmp "$worst" "<=" 0.000002 "the converted log replays as the log itself with the same seed (worst, s)"
pass "a one-second-stamp log converted with a seed keeps that seed's schedule"

# Sort: an nginx log with $msec, written shuffled; sorted, the same lines in time order.
awk '{ printf "%.3f \"GET /s/%d HTTP/1.1\" 200\n", 1764583200 + $1, NR }' "$E2E_TMP/t.txt" |
  awk 'BEGIN { srand(9) } { print rand() "\t" $0 }' | sort -k1,1 | cut -f2- >"$E2E_TMP/shuffled.log"
"$OPENLOOP" trace sort "$E2E_TMP/shuffled.log" -o "$E2E_TMP/sorted.log" --replay-log-format '$msec "$request" $status' \
  >"$E2E_TMP/s.txt" 2>&1 || fail "sort exit $?: $(cat "$E2E_TMP/s.txt")"
diff <(sort "$E2E_TMP/shuffled.log") <(sort "$E2E_TMP/sorted.log") >/dev/null || fail "sort changed the lines"
awk 'NR > 1 && $1 < prev { bad = 1 } { prev = $1 } END { exit bad }' "$E2E_TMP/sorted.log" || fail "not in time order"
! awk 'NR > 1 && $1 < prev { bad = 1 } { prev = $1 } END { exit bad }' "$E2E_TMP/shuffled.log" || fail "the input was sorted already"
grep -q '300 lines' "$E2E_TMP/s.txt" || fail "sort says what it wrote: $(cat "$E2E_TMP/s.txt")"
pass "a shuffled log sorted by time, the same lines"

# Inspect: counts, the endpoint mix (ids normalised), the statuses, and a dispersion.
"$OPENLOOP" trace inspect "$E2E_TMP/rec.har" --json "$E2E_TMP/i.json" >"$E2E_TMP/i.txt" 2>&1 ||
  fail "inspect exit $?: $(cat "$E2E_TMP/i.txt")"
assert_cmp "$(json "$E2E_TMP/i.json" .records)" == 300 "inspect counts the records"
[[ $(json "$E2E_TMP/i.json" '.endpoints[0].endpoint') == 'GET /item/{n}' ]] || fail "ids normalised: $(cat "$E2E_TMP/i.json")"
assert_cmp "$(json "$E2E_TMP/i.json" '.statuses["503"]')" == 30 "the status mix"
assert_cmp "$(json "$E2E_TMP/i.json" '.rate_per_second | add')" == 300 "the rate series adds up to the records"
assert_cmp "$(json "$E2E_TMP/i.json" .dispersion)" ">=" 0 "a dispersion"
grep -q 'GET /item/{n}' "$E2E_TMP/i.txt" || fail "the text names the endpoint: $(cat "$E2E_TMP/i.txt")"
pass "inspect: records, endpoints, statuses, rate series"

# Bad input: exit 2 with the place named, nothing written.
expect_trace_usage() {  # message, then trace's arguments
  local want=$1 code=0
  shift
  "$OPENLOOP" trace "$@" >"$E2E_TMP/out.txt" 2>&1 || code=$?
  [[ $code == 2 ]] || fail "'trace $*' exit $code, expected 2: $(cat "$E2E_TMP/out.txt")"
  grep -qF -- "$want" "$E2E_TMP/out.txt" || fail "'trace $*' message lacks '$want': $(cat "$E2E_TMP/out.txt")"
}
sed '5s/.*/not a record/' "$E2E_TMP/rec.jsonl" >"$E2E_TMP/bad.jsonl"
expect_trace_usage 'bad.jsonl:5: not a JSON object' convert "$E2E_TMP/bad.jsonl" -o "$E2E_TMP/never.jsonl"
[[ ! -e $E2E_TMP/never.jsonl ]] || fail "a refused convert wrote its output"
expect_trace_usage 'a HAR file is one JSON document' sort "$E2E_TMP/rec.har" -o "$E2E_TMP/never.har"
expect_trace_usage 'auto, nginx, apache, har or jsonl' inspect "$E2E_TMP/rec.har" --replay-format csv
expect_trace_usage '-o' convert "$E2E_TMP/rec.har"
[[ ! -e $E2E_TMP/never.har ]] || fail "a refused sort wrote its output"
"$OPENLOOP" trace convert "$E2E_TMP/bad.jsonl" -o "$E2E_TMP/skip.jsonl" --skip-bad >"$E2E_TMP/out.txt" 2>&1 ||
  fail "convert --skip-bad exit $?"
assert_cmp "$(wc -l <"$E2E_TMP/skip.jsonl")" == 299 "--skip-bad leaves the bad line out"
pass "bad traces and flags refused with exit 2, nothing written"
