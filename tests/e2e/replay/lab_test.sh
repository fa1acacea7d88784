# A generated JSONL trace (2000 records over 4 s, bursty, some out of order, credentials in it) replayed at --speed 2
# against the lab: every record sent and accounted for, the lab counts exactly the records, the run VALID, each
# intended time the trace's offset / 2 (from the request log), no secret of the trace in any output; bad flags and a
# bad line refused before anything is sent.
# e2e: parallel-safe (counts, and intended times from the trace)
source "$OPENLOOP_E2E_LIB"
require_tools jq awk
trace=$E2E_TMP/trace.jsonl
# Bursts: records cluster around 8 centres in 4 s (t from an origin of 1000 s: only differences count). Every 50th
# record is written 20 ms out of order (inside the reorder window: sorted back). Every 10th is a POST with a body.
awk 'BEGIN { srand(7); for (i = 0; i < 2000; i++) { c = int(rand() * 8); printf "%.6f\n", 1000 + c * 0.5 + rand() * rand() * 0.5 } }' |
  sort -g | awk '{ t = $1; i = NR; if (i % 50 == 0) t -= 0.02
    if (i % 10 == 0)
      printf "{\"t\": %.6f, \"method\": \"POST\", \"url\": \"http://prod.example/item/%d?token=SECRET%d\", \"headers\": {\"Authorization\": \"Bearer SECRET\", \"X-Rec\": \"%d\"}, \"body\": \"{\\\"n\\\": %d}\"}\n", t, i, i, i, i
    else
      printf "{\"t\": %.6f, \"url\": \"/item/%d\", \"headers\": {\"Cookie\": \"sid=SECRET\"}, \"session\": %d}\n", t, i, i % 37
  }' >"$trace"
assert_cmp "$(wc -l <"$trace")" == 2000 "the trace has 2000 records"
start_lab
r=$E2E_TMP/r.json
log=$E2E_TMP/log.jsonl
code=0
"$OPENLOOP" run --replay "$trace" --target "$LAB_URL" --speed 2 --redact-param token --threads 2 \
  --json "$r" --log-requests "$log" >"$E2E_TMP/out.txt" 2>&1 || code=$?
accept_invalid_only_for "$code" "$r" '^send lateness'
assert_conserved "$r"
intended=$(jq '.summary.counts.intended + .warmup.counts.intended' "$r")
assert_cmp "$intended" == 2000 "every record is one intended request"
assert_cmp "$(json "$r" .summary.counts.ok)" == 2000 "every record answered"
assert_cmp "$(lab_query .arrivals)" == 2000 "the lab received exactly the trace's records"
assert_cmp "$(json "$r" .plan.replay.records)" == 2000 "the results record the replay's records"
assert_cmp "$(json "$r" .plan.replay.speed)" == 2 "and its speed"
assert_cmp "$(json "$r" .plan.replay.late)" == 0 "20 ms out of order is inside the 5 s window: sorted, none late"
assert_cmp "$(json "$r" .plan.replay.credentials_dropped)" == 2000 "every record had a credential dropped"
[[ $(json "$r" .plan.arrival) == replay ]] || fail "the plan says its arrivals are a replay"
# The schedule: intended_i - intended_0 = (t_i - t_0) / 2 for the sorted trace, to the log's microsecond.
jq -r '.t' "$trace" | sort -g | awk 'NR == 1 { t0 = $1 } { printf "%.6f\n", ($1 - t0) / 2 }' >"$E2E_TMP/want.txt"
jq -r '.intended_s' "$log" | sort -g | awk 'NR == 1 { t0 = $1 } { printf "%.6f\n", $1 - t0 }' >"$E2E_TMP/got.txt"
assert_cmp "$(wc -l <"$E2E_TMP/got.txt")" == 2000 "one log line per record"
worst=$(paste "$E2E_TMP/want.txt" "$E2E_TMP/got.txt" | awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > m) m = d } END { printf "%.6f", m }')
assert_cmp "$worst" "<=" 0.000002 "intended times follow the trace / speed (worst difference in seconds)"
span=$(tail -1 "$E2E_TMP/got.txt")
assert_near "$span" "$(tail -1 "$E2E_TMP/want.txt")" 0.000002 "the replay spans half the trace"
# Privacy: no secret of the trace in the results, the log or the summary.
for f in "$r" "$log" "$E2E_TMP/out.txt"; do
  ! grep -q SECRET "$f" || fail "a secret of the trace reached $f"
done
pass "JSONL trace replayed at 2x: conserved, counted by the lab, on schedule, secrets dropped"

# Bad input: exit 2 naming what is accepted, nothing sent.
expect_usage "auto, nginx, apache, har or jsonl" --replay "$trace" --target "$LAB_URL" --replay-format csv
expect_usage "--speed: \"0\" is not accepted" --replay "$trace" --target "$LAB_URL" --speed 0
expect_usage "--rate: not with --replay" --replay "$trace" --target "$LAB_URL" --rate 10/s
expect_usage "needs --target" --replay "$trace"
expect_usage "cannot open" --replay "$E2E_TMP/missing.jsonl" --target "$LAB_URL"
sed '3s/.*/{"t": 1000.5, "url": "no-slash"}/' "$trace" >"$E2E_TMP/bad.jsonl"
expect_usage "bad.jsonl:3: url \"no-slash\"" --replay "$E2E_TMP/bad.jsonl" --target "$LAB_URL"
assert_cmp "$(lab_query .arrivals)" == 2000 "nothing is sent after a usage error"
pass "bad replay flags and lines refused before any load"

# --skip-bad: the bad line counted and said, the rest replayed.
code=0
"$OPENLOOP" run --replay "$E2E_TMP/bad.jsonl" --target "$LAB_URL" --speed 4 --skip-bad --json "$E2E_TMP/s.json" \
  >"$E2E_TMP/out2.txt" 2>&1 || code=$?
accept_invalid_only_for "$code" "$E2E_TMP/s.json" '^send lateness'
assert_cmp "$(json "$E2E_TMP/s.json" .plan.replay.skipped_lines)" == 1 "the bad line counted"
assert_cmp "$(jq '.summary.counts.intended + .warmup.counts.intended' "$E2E_TMP/s.json")" == 1999 "the rest replayed"
grep -q 'bad lines skipped' "$E2E_TMP/out2.txt" || fail "the summary says lines were skipped: $(cat "$E2E_TMP/out2.txt")"
pass "--skip-bad counts and says"
