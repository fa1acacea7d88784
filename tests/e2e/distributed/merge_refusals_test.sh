# openloop merge of shards from the command line: the same file twice (by content hash), --max-skew and
# --allow-partial as flags, exit 2 naming the file. (Every refusal is also a unit test:
# tests/results/merging/merge_shards_test.cpp.) The shard files are real results files with plan.shard added, as
# a shard writes them.
# e2e: parallel-safe (merge's refusals of files)
source "$OPENLOOP_E2E_LIB"
start_lab --workers 64 --service 1ms
set +e
"$OPENLOOP" run "$LAB_URL/" --rate 200/s --duration 2s --threads 1 --quiet --no-html --run-id refusals \
  --json "$E2E_TMP/whole.json" >/dev/null
code=$?
set -e
accept_invalid_only_for "$code" "$E2E_TMP/whole.json" '^send lateness'
# Shard I of 4 of the same run: the whole file relabelled, its start moved by SKEW seconds.
make_shard() { # INDEX SKEW OUT
  jq --argjson i "$1" --argjson skew "$2" \
    '.plan.shard = {index: $i, count: 4, weights: [], share: 0.25} | .environment.start_unix_s += $skew' \
    "$E2E_TMP/whole.json" >"$3"
}
for i in 0 1 2 3; do make_shard "$i" "0.$i" "$E2E_TMP/shard-$i.json"; done

expect_merge_refusal() { # MESSAGE ARGS...
  local want=$1; shift
  set +e
  "$OPENLOOP" merge -q -o "$E2E_TMP/merged.json" "$@" >"$E2E_TMP/out.txt" 2>&1
  local code=$?
  set -e
  [[ $code == 2 ]] || fail "merge $* exit $code, expected 2: $(cat "$E2E_TMP/out.txt")"
  grep -qF -- "$want" "$E2E_TMP/out.txt" || fail "merge $*: message lacks '$want': $(cat "$E2E_TMP/out.txt")"
}

"$OPENLOOP" merge -q -o "$E2E_TMP/merged.json" "$E2E_TMP"/shard-{0,1,2,3}.json || fail "four shards did not merge"
[[ $(json "$E2E_TMP/merged.json" .plan.shards) == 4 && $(json_or_null "$E2E_TMP/merged.json" '.plan.shard') == null ]] ||
  fail "merged plan: shards 4, no shard"
[[ $(json "$E2E_TMP/merged.json" .run_id) == refusals ]] || fail "the merged run keeps the run id"
assert_cmp "$(json "$E2E_TMP/merged.json" .summary.counts.intended)" == \
  "$(($(json "$E2E_TMP/whole.json" .summary.counts.intended) * 4))" "counts add exactly"
pass "four shards merge"

cp "$E2E_TMP/shard-1.json" "$E2E_TMP/copy.json"
expect_merge_refusal "shard-1.json and $E2E_TMP/copy.json have the same content" \
  "$E2E_TMP"/shard-{0,1,2,3}.json "$E2E_TMP/copy.json"
expect_merge_refusal "shard 3/4 (share 0.25) missing" "$E2E_TMP"/shard-{0,1,2}.json
"$OPENLOOP" merge -q --allow-partial -o "$E2E_TMP/partial.json" "$E2E_TMP"/shard-{0,1,2}.json 2>"$E2E_TMP/err.txt" ||
  fail "--allow-partial did not merge"
[[ $(json "$E2E_TMP/partial.json" '.plan.partial.missing[0]') == "shard 3/4 (share 0.25)" ]] || fail "partial label"
grep -q PARTIAL "$E2E_TMP/err.txt" || fail "a partial merge says so"
pass "missing shard refused; --allow-partial labels it"

make_shard 3 1.8 "$E2E_TMP/late-3.json"
expect_merge_refusal "late-3.json: started 1.800s after" "$E2E_TMP"/shard-{0,1,2}.json "$E2E_TMP/late-3.json"
"$OPENLOOP" merge -q --max-skew 2s -o "$E2E_TMP/m2.json" "$E2E_TMP"/shard-{0,1,2}.json "$E2E_TMP/late-3.json" ||
  fail "--max-skew 2s did not accept a 1.8 s skew"
expect_merge_refusal "--max-skew: " --max-skew soon "$E2E_TMP"/shard-{0,1,2,3}.json
pass "start skew refused above --max-skew"

jq '.run_id = "other"' "$E2E_TMP/shard-2.json" >"$E2E_TMP/other-2.json"
expect_merge_refusal "other-2.json: its run id other differs" "$E2E_TMP"/shard-{0,1,3}.json "$E2E_TMP/other-2.json"
jq '.plan_hash = "0000000000000000000000000000000000000000000000000000000000000000"' "$E2E_TMP/shard-2.json" \
  >"$E2E_TMP/plan-2.json"
expect_merge_refusal "plan-2.json: its plan hash 0000000000000000 differs" "$E2E_TMP"/shard-{0,1,3}.json \
  "$E2E_TMP/plan-2.json"
pass "other run or plan refused"
