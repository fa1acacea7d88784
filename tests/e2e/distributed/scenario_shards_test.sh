# A plan file's run in shards: 2 shards of a file with an open and a closed scenario, started together
# (--start-at) under one --run-id, each writing a manifest; merged, the open scenario's intended count is the
# unsharded plan's and the closed one's users add up. The plan hash covers every scenario: a file that differs in
# its second scenario only is another plan, and merge refuses it (exit 2).
# e2e: light (intended counts, exact; shards start within 0.5 s of --start-at)
source "$OPENLOOP_E2E_LIB"
start_lab --workers 64 --service 1ms
cd "$E2E_TMP"
plan_file() {  # plan_file FILE VUS
  cat >"$1" <<PLAN
target: $LAB_URL
requests:
  home:
    path: /
scenarios:
  visitors:
    model: open
    rate: 200/s
    duration: 2s
    request: home
  batch:
    model: closed
    vus: $2
    think: 20ms
    duration: 2s
    request: home
PLAN
}
plan_file plan.yaml 4
plan_file other.yaml 3

start_at=$(date -u -d '+2 seconds' +%Y-%m-%dT%H:%M:%SZ)
pids=()
for i in 0 1; do
  "$OPENLOOP" run plan.yaml --threads 1 --shard "$i/2" --start-at "$start_at" --run-id e2e-file --quiet --no-html \
    --json "s$i.json" >/dev/null 2>"s$i.err" &
  pids+=($!)
done
for i in 0 1; do
  set +e
  wait "${pids[$i]}"
  code=$?
  set -e
  [[ -s s$i.json ]] || fail "shard $i wrote no results (exit $code): $(cat "s$i.err")"
  accept_invalid_only_for "$code" "s$i.json" '^(visitors: |batch: )?send lateness'
  [[ -s s$i.json.manifest.json ]] || fail "shard $i wrote no manifest"
  [[ $(json "s$i.json" .run_id) == e2e-file ]] || fail "shard $i's run id is not --run-id"
  assert_cmp "$(json "s$i.json" .start.lag_s)" "<" 0.5 "shard $i started on time"
done
[[ $(json s0.json .plan_hash) == $(json s1.json .plan_hash) ]] || fail "the shards of one file have other plan hashes"
set +e
"$OPENLOOP" merge s0.json s1.json -o m.json -q
code=$?
set -e
[[ $code == 0 || $code == 3 ]] || fail "merging the shards exited $code"
[[ $(json m.json .plan.shards) == 2 ]] || fail "the merged plan does not say 2 shards"
visitors=$(jq '.scenarios[] | select(.name == "visitors") | .summary.counts.intended' m.json)
[[ $visitors == 400 ]] || fail "the merged open scenario intended $visitors requests, the plan 400"
batch=$(jq '[.scenarios[] | select(.name == "batch") | .summary.counts.intended] | add' m.json)
assert_cmp "$batch" ">" 0 "the merged closed scenario sent requests"
pass "a plan file in 2 shards: one run id, one plan hash, merged to the plan's 400 open arrivals"

# The same file but 3 batch users: another plan hash, so a shard of it does not merge with these.
set +e
"$OPENLOOP" run other.yaml --threads 1 --shard 1/2 --run-id e2e-file --quiet --no-html --json o1.json >/dev/null 2>&1
"$OPENLOOP" merge s0.json o1.json -o z.json -q 2>refused.err
code=$?
set -e
[[ $(json o1.json .plan_hash) != $(json s0.json .plan_hash) ]] || fail "a file with other batch users has the same plan hash"
[[ $code == 2 ]] || fail "merging shards of two files exited $code, expected 2"
grep -q 'plan' refused.err || fail "the refusal does not name the plan: $(cat refused.err)"
pass "a file differing in its second scenario is another plan: merge refused (exit 2)"
