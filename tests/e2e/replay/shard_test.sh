# A trace replayed in 2 host shards (--shard I/2, 2 threads each, started together under one run id) against the
# lab: record i goes to shard i mod 2, so shard 0 intends exactly the even-indexed records at their offsets, shard 1
# the odd ones; merged, intended equals the trace's records and the lab counted each once. Weighted 2,1, shard 0
# takes two of every three records (the weighted stripe), and the two again merge to the whole trace.
# e2e: light (each shard's intended records and the lab's counts)
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

# Weighted 2,1: the stripe's owners of positions 0, 1, 2 are shards 0, 1, 0 (workload/shard.h), so shard 1 takes
# the records i with i mod 3 = 1 (334 of 1001) and shard 0 the others (667), each at its own offset.
awk 'NR == 1 { t0 = $0 } (NR - 1) % 3 != 1 { printf "%.0f\n", ($0 - t0) * 1e6 }' <(jq -r .t trace.jsonl) >want.w0
awk 'NR == 1 { t0 = $0 } (NR - 1) % 3 == 1 { printf "%.0f\n", ($0 - t0) * 1e6 }' <(jq -r .t trace.jsonl) >want.w1
start_at=$(date -u -d '+2 seconds' +%Y-%m-%dT%H:%M:%SZ)
pids=()
for i in 0 1; do
  "$OPENLOOP" run --replay trace.jsonl --target "$LAB_URL" --threads 2 --shard "$i/2" --shard-weights 2,1 \
    --start-at "$start_at" --run-id e2e-replay-shard-w --quiet --no-html --json "w$i.json" \
    --log-requests "wlog.$i.jsonl" >/dev/null 2>"w$i.err" &
  pids+=($!)
done
for i in 0 1; do
  code=0
  wait "${pids[$i]}" || code=$?
  [[ -s w$i.json ]] || fail "weighted shard $i wrote no results (exit $code): $(cat "w$i.err")"
  accept_invalid_only_for "$code" "w$i.json" '^send lateness'
  assert_conserved "w$i.json"
  start=$(json "w$i.json" .environment.start_unix_s)
  jq -r .intended_s "wlog.$i.jsonl" | sort -g | awk -v s="$start" '{ printf "%.0f\n", ($1 - s) * 1e6 }' >"wgot.$i"
  assert_cmp "$(wc -l <"wgot.$i")" == "$(wc -l <"want.w$i")" "weighted shard $i intends its share of the records"
  worst=$(paste "want.w$i" "wgot.$i" | awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > m) m = d } END { print m + 0 }')
  assert_cmp "$worst" "<=" 2 "weighted shard $i's intended times are its records' offsets (worst difference, µs)"
done
assert_cmp "$(wc -l <want.w0)" == 667 "weight 2 of 3: shard 0 takes 667 records"
set +e
"$OPENLOOP" merge w0.json w1.json -o wm.json -q
code=$?
set -e
[[ $code == 0 || $code == 3 ]] || fail "merging the weighted shards exited $code"
assert_cmp "$(json wm.json '.summary.counts.intended + .warmup.counts.intended')" == 1001 \
  "merged, the weighted shards intend exactly the trace's records"
assert_conserved wm.json
assert_cmp "$(lab_query .arrivals)" == 2002 "the lab received each record once more"
pass "a trace in shards weighted 2,1: two of every three records on shard 0, merged to the whole trace"
