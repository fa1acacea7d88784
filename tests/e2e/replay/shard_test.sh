# A trace replayed in 2 host shards (--shard I/2, 2 threads each, started together under one run id) against the
# lab: record i goes to shard i mod 2, so shard 0 intends exactly the even-indexed records at their offsets, shard 1
# the odd ones; merged, intended equals the trace's records and the lab counted each once. Unequal
# --shard-weights are refused (exit 2), nothing sent.
source "$OPENLOOP_E2E_LIB"
require_tools jq awk
start_lab --workers 64
cd "$E2E_TMP"
# 1001 records (an odd count: the shards differ by one) over 2 s, each time distinct, written in time order.
awk 'BEGIN { for (i = 0; i < 1001; i++) printf "{\"t\": %.6f, \"url\": \"/item/%d\"}\n", 50 + i * 0.002 + (i % 7) * 0.0001, i }' \
  >trace.jsonl
# want.I: the offsets (from the first record) of the records i with i mod 2 = I, in microseconds.
for i in 0 1; do
  awk -v s="$i" 'NR == 1 { t0 = $0 } (NR - 1) % 2 == s { printf "%.0f\n", ($0 - t0) * 1e6 }' \
    <(jq -r .t trace.jsonl) >"want.$i"
done

start_at=$(date -u -d '+2 seconds' +%Y-%m-%dT%H:%M:%SZ)
pids=()
for i in 0 1; do
  "$OPENLOOP" run --replay trace.jsonl --target "$LAB_URL" --threads 2 --shard "$i/2" --start-at "$start_at" \
    --run-id e2e-replay-shard --quiet --no-html --json "s$i.json" --log-requests "log.$i.jsonl" >/dev/null 2>"s$i.err" &
  pids+=($!)
done
for i in 0 1; do
  code=0
  wait "${pids[$i]}" || code=$?
  [[ -s s$i.json ]] || fail "shard $i wrote no results (exit $code): $(cat "s$i.err")"
  accept_invalid_only_for "$code" "s$i.json" '^send lateness'
  assert_conserved "s$i.json"
  [[ $(json "s$i.json" .plan.shard.index) == "$i" ]] || fail "shard $i's results do not name their shard"
  # Each intended time from this shard's own start (the log's are Unix times).
  start=$(json "s$i.json" .environment.start_unix_s)
  jq -r .intended_s "log.$i.jsonl" | sort -g | awk -v s="$start" '{ printf "%.0f\n", ($1 - s) * 1e6 }' >"got.$i"
  assert_cmp "$(wc -l <"got.$i")" == "$(wc -l <"want.$i")" "shard $i intends one request per record i with i mod 2 = $i"
  worst=$(paste "want.$i" "got.$i" | awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > m) m = d } END { print m + 0 }')
  assert_cmp "$worst" "<=" 2 "shard $i's intended times are its records' offsets (worst difference, µs)"
done
assert_cmp "$(wc -l <want.0)" == 501 "shard 0 takes the 501 even-indexed records"
set +e
"$OPENLOOP" merge s0.json s1.json -o m.json -q
code=$?
set -e
[[ $code == 0 || $code == 3 ]] || fail "merging the shards exited $code"
assert_cmp "$(json m.json .plan.shards)" == 2 "the merged plan says 2 shards"
assert_cmp "$(json m.json '.summary.counts.intended + .warmup.counts.intended')" == 1001 \
  "merged, the shards intend exactly the trace's records"
assert_conserved m.json
assert_cmp "$(lab_query .arrivals)" == 1001 "the lab received each record once"
pass "a trace in 2 shards of 2 threads: record i on shard i mod 2 at its own offset, merged to the whole trace"

expect_usage "give equal weights or none" --replay trace.jsonl --target "$LAB_URL" --shard 0/2 --shard-weights 2,1
assert_cmp "$(lab_query .arrivals)" == 1001 "nothing is sent after the refusal"
pass "unequal --shard-weights with a replay refused (exit 2)"
