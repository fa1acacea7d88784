# Three weighted shards (2,1,1) of one plan, run at once against the lab (as shards run), each told its shard a
# different way (--shard, OPENLOOP_SHARD, Slurm's variables): each sends exactly its striped part of the
# plan, records the whole plan plus plan.shard, and says so in its summary; bad shard usage exits 2.
# e2e: light (each shard's striped part, exact counts; INVALID only for the generator's lateness)
source "$OPENLOOP_E2E_LIB"
require_tools jq
start_lab --workers 50 --service 1ms --duration 60s
# 200/s for 2 s: 400 global arrivals; weights 2,1,1 stripe them 0,1,2,0 per cycle of 4: 200, 100, 100.
common=(run "$LAB_URL/" --rate 200/s --duration 2s --threads 2 --shard-weights 2,1,1 -q)
want_intended=(200 100 100)
want_share=(0.5 0.25 0.25)
# in_background NAME COMMAND...: starts COMMAND, its standard output in $E2E_TMP/out-NAME.txt and its exit code
# (once it ended) in $E2E_TMP/NAME.code; its pid is appended to BG.
BG=()
in_background() {
  local name=$1
  shift
  (
    code=0
    "$@" >"$E2E_TMP/out-$name.txt" || code=$?
    echo "$code" >"$E2E_TMP/$name.code"
  ) &
  BG+=("$!")
  E2E_PIDS+=("$!")
}
wait_background() {
  local pid
  for pid in "${BG[@]}"; do wait "$pid" || true; done
  BG=()
}
in_background 0 "$OPENLOOP" "${common[@]}" --shard 0/3 --json "$E2E_TMP/shard-0.json" --no-html
in_background 1 env OPENLOOP_SHARD=1/3 "$OPENLOOP" "${common[@]}" --json "$E2E_TMP/shard-1.json" --no-html
in_background 2 env SLURM_PROCID=2 SLURM_NTASKS=3 "$OPENLOOP" "${common[@]}" --json "$E2E_TMP/shard-2.json" --no-html
wait_background
for i in 0 1 2; do
  r=$E2E_TMP/shard-$i.json
  [[ -s $E2E_TMP/$i.code ]] || fail "shard $i did not end"
  code=$(cat "$E2E_TMP/$i.code")
  # On a loaded machine the generator's own send lateness may pass its bound; nothing else may fail.
  accept_invalid_only_for "$code" "$r" '^send lateness'
  assert_conserved "$r"
  assert_cmp "$(json "$r" .summary.counts.intended)" == "${want_intended[$i]}" "shard $i: intended"
  assert_cmp "$(json "$r" .summary.counts.ok)" == "${want_intended[$i]}" "shard $i: every request ok"
  # The shard's planned rate is its share of 200/s, so its verdict judges its own part.
  assert_cmp "$(json "$r" .summary.planned_rps)" == "$(awk -v s="${want_share[$i]}" 'BEGIN{print 200*s}')" \
    "shard $i: planned rate is its share"
  [[ $(jq -c .plan.shard "$r") == "{\"count\":3,\"index\":$i,\"poisson_split\":\"stripe\",\"share\":${want_share[$i]},\"weights\":[2,1,1]}" ]] ||
    fail "shard $i: plan.shard is $(jq -c .plan.shard "$r")"
  assert_cmp "$(json "$r" .plan.rate_rps)" == 200 "shard $i: the plan recorded is the whole plan"
  head -1 "$E2E_TMP/out-$i.txt" | grep -qF "shard $i/3 (share $(awk -v s="${want_share[$i]}" 'BEGIN{print s*100}')%)" ||
    fail "shard $i: summary header: $(head -1 "$E2E_TMP/out-$i.txt")"
done
# Every shard records the same plan once plan.shard is set aside.
for i in 1 2; do
  [[ $(json "$E2E_TMP/shard-0.json" 'del(.plan.shard) | .plan | tojson') == \
    "$(json "$E2E_TMP/shard-$i.json" 'del(.plan.shard) | .plan | tojson')" ]] ||
    fail "shard $i records a different plan than shard 0"
done
pass "three weighted shards ran exactly their parts and recorded the whole plan"

# A scenario file: a Poisson scenario (striped: the shards' arrivals are exactly the unsharded run's) beside a
# closed one (3 users split 2 + 1), unsharded and as 2 shards (the three runs at once).
cat >"$E2E_TMP/plan.yaml" <<YAML
target: $LAB_URL/
requests:
  get: {path: /}
scenarios:
  public: {model: open, arrival: poisson, seed: 7, rate: 150/s, duration: 2s, request: get}
  batch: {model: closed, vus: 3, think: 100ms, duration: 2s, request: get}
YAML
sum=0
in_background plan-none "$OPENLOOP" run "$E2E_TMP/plan.yaml" --threads 2 -q --json "$E2E_TMP/plan-none.json" --no-html
for s in 0/2 1/2; do
  in_background "plan-${s//\//-}" "$OPENLOOP" run "$E2E_TMP/plan.yaml" --threads 2 -q --shard "$s" \
    --json "$E2E_TMP/plan-${s//\//-}.json" --no-html
done
wait_background
for s in none 0/2 1/2; do
  r=$E2E_TMP/plan-${s//\//-}.json
  [[ -s $E2E_TMP/plan-${s//\//-}.code ]] || fail "plan run $s did not end"
  code=$(cat "$E2E_TMP/plan-${s//\//-}.code")
  accept_invalid_only_for "$code" "$r" 'send lateness'
  public=$(jq '.scenarios[] | select(.name == "public") | .summary.counts.intended' "$r")
  if [[ $s == none ]]; then
    whole=$public
    [[ $(jq -c '.scenarios[] | select(.name == "public") | .plan.shard' "$r") == null ]] || fail "unsharded run has plan.shard"
  else
    sum=$((sum + public))
    assert_cmp "$(jq '.scenarios[] | select(.name == "batch") | .plan.users' "$r")" == 3 "shard $s records the whole plan's users"
    assert_cmp "$(jq '.scenarios[] | select(.name == "batch") | .plan.shard.count' "$r")" == 2 "shard $s: plan.shard"
  fi
done
assert_cmp "$whole" ">" 200 "the Poisson scenario sent about 300"
assert_cmp "$sum" == "$whole" "the shards' Poisson arrivals add up to the unsharded run's exactly"
pass "a scenario file's Poisson scenario splits exactly across 2 shards"

# A sessions cap of 2 split over 2 shards leaves each 1 for its 2 threads: each worker still gets a slot, so
# sessions 400 ms apart per worker (1 ms each) are never dropped.
for i in 0 1; do
  in_background "sessions-$i" "$OPENLOOP" run "$LAB_URL/" --session-rate 10/s --max-sessions 2 --duration 2s \
    --threads 2 --shard "$i/2" -q --json "$E2E_TMP/sessions-$i.json" --no-html
done
wait_background
for i in 0 1; do
  r=$E2E_TMP/sessions-$i.json
  [[ -s $E2E_TMP/sessions-$i.code ]] || fail "sessions shard $i did not end"
  code=$(cat "$E2E_TMP/sessions-$i.code")
  accept_invalid_only_for "$code" "$r" '^send lateness'
  assert_cmp "$(json "$r" .summary.flows.sessions_intended)" == 10 "sessions shard $i: half of 20 arrivals"
  assert_cmp "$(json "$r" .summary.flows.sessions_dropped)" == 0 "sessions shard $i: nothing dropped"
  assert_cmp "$(json "$r" .plan.max_sessions)" == 2 "sessions shard $i: the whole plan's cap recorded"
done
pass "a small sessions cap split between shards still serves every worker"

expect_usage "0 to 2" "$LAB_URL/" --rate 10/s --duration 1s --shard 3/3
expect_usage "--shard-weights" "$LAB_URL/" --rate 10/s --duration 1s --shard 1/2 --shard-weights 1
expect_usage "--shard-weights" "$LAB_URL/" --rate 10/s --duration 1s --shard-weights 1,1
set +e
OPENLOOP_SHARD=0/2 "$OPENLOOP" run "$LAB_URL/" --rate 10/s --duration 1s --shard 1/2 >"$E2E_TMP/out.txt" 2>&1
code=$?
SLURM_PROCID=x SLURM_NTASKS=2 "$OPENLOOP" run "$LAB_URL/" --rate 10/s --duration 1s >"$E2E_TMP/out2.txt" 2>&1
code2=$?
set -e
[[ $code == 2 ]] || fail "conflicting shard sources: exit $code, expected 2"
grep -qF -- "--shard 1/2" "$E2E_TMP/out.txt" && grep -qF "OPENLOOP_SHARD=0/2" "$E2E_TMP/out.txt" ||
  fail "conflict message names both sources: $(cat "$E2E_TMP/out.txt")"
[[ $code2 == 2 ]] || fail "malformed SLURM_PROCID: exit $code2, expected 2"
grep -qF "SLURM_PROCID" "$E2E_TMP/out2.txt" || fail "malformed message names the variable: $(cat "$E2E_TMP/out2.txt")"
pass "bad shard usage exits 2 naming the input"
