# deploy/pdsh/openloop-shards with pdsh -R exec: 4 shards of one plan against one lab on 127.0.0.1, all starting
# at one --start-at a few seconds ahead, merged. The merged per-interval intended counts equal an unsharded run's,
# the merged histogram count is the sum of the shards', every shard wrote a manifest, all share one run id; the
# merged interval log is written beside the merged results.
# e2e: light (intended counts per interval, exact; shards start within 0.5 s of --start-at)
source "$OPENLOOP_E2E_LIB"
require_tools pdsh
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
start_lab --workers 256 --service 1ms
# 2 s (3 s until stop 47): the merge is checked interval by interval, and two intervals check it as three did.
plan=("$LAB_URL/" --rate 400/s --duration 2s --threads 1 --timeout 2s)

set +e
"$OPENLOOP" run "${plan[@]}" --quiet --no-html --json "$E2E_TMP/whole.json" >/dev/null
code=$?
set -e
accept_invalid_only_for "$code" "$E2E_TMP/whole.json" '^send lateness'

dir=$E2E_TMP/shards
set +e
"$root/deploy/pdsh/openloop-shards" -R exec -w 'shard[0-3]' -d "$dir" -s 3 -b "$OPENLOOP" -- "${plan[@]}" \
  >"$E2E_TMP/pdsh.out" 2>"$E2E_TMP/pdsh.err"
code=$?
set -e
cat "$E2E_TMP/pdsh.err" >&2
m=$dir/merged.json
[[ -s $m ]] || fail "no merged results (exit $code)"
[[ -s $dir/merged.hlog ]] || fail "no merged interval log"
accept_invalid_only_for "$code" "$m" 'send lateness'

for i in 0 1 2 3; do
  [[ -s $dir/shard-$i.json.manifest.json ]] || fail "shard $i wrote no manifest"
  [[ $(json "$dir/shard-$i.json" .plan.shard.index) == "$i" ]] || fail "shard-$i.json is not shard $i"
  [[ $(json "$dir/shard-$i.json" .run_id) == $(json "$m" .run_id) ]] || fail "shard $i has another run id"
  assert_cmp "$(json "$dir/shard-$i.json" .start.lag_s)" "<" 0.5 "shard $i started on time"
done
[[ $(json "$m" .plan.shards) == 4 ]] || fail "the merged plan does not say 4 shards"
whole=$(jq -c '[.intervals[].counts.intended]' "$E2E_TMP/whole.json")
merged=$(jq -c '[.intervals[].counts.intended]' "$m")
[[ $merged == "$whole" ]] || fail "merged intended per interval $merged, unsharded $whole"
sum=$(jq -s 'map(.summary.response_time_ms.count) | add' "$dir"/shard-[0-3].json)
assert_cmp "$(json "$m" .summary.response_time_ms.count)" == "$sum" "merged histogram count = sum of shards'"
assert_cmp "$(json "$m" .summary.counts.intended)" == "$(json "$E2E_TMP/whole.json" .summary.counts.intended)" \
  "merged intended = unsharded intended"
skew=$(jq -s 'map(.environment.start_unix_s) | max - min' "$dir"/shard-[0-3].json)
echo "note: start skew across 4 shards: $skew s; intended per interval $merged"
pass "pdsh -R exec: 4 shards merged exactly (intended per interval $merged)"
