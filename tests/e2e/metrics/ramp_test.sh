# --metrics-listen on ramp: every step has series of its own (labels step and rate). On virtual time (ramp
# --simulate, staircase and --fresh --refine) the final scrape (during --metrics-linger) shows each step's
# counters equal to its counts in the ramp file, its verdict gauge valid/invalid as its state, its target rate
# its offered rate, the ramp's capacity gauge equal to the file's, and every series' run_id label the file's
# run_id (OPENLOOP_RUN_ID when set, else random as run's; the file's runs carry it too); on the network a scrape
# while the first step is measured already shows it (live, before it is judged; the ramp may end INVALID only for
# the generator's lateness or CPU); a bad address exits 2 before anything is sent; promtool accepts the text.
source "$OPENLOOP_E2E_LIB"
require_tools jq curl
cd "$E2E_TMP"

# Scrapes the endpoint of a command writing $2 (its results file) and lingering: waits (≤ 60 s) for the file,
# then scrapes once into $1.
scrape_after_file() {
  local out=$1 file=$2 port=$3
  for _ in $(seq 600); do
    [[ -s $file ]] && break
    sleep 0.1
  done
  [[ -s $file ]] || fail "no $file within 60 s"
  curl -sf --max-time 2 "http://127.0.0.1:$port/metrics" >"$out" || fail "no scrape during the linger"
}

# One scraped value: the series of family $1 whose labels hold every fragment after it.
scraped() {
  local name=$1
  shift
  awk -v n="$name" -v want="$*" 'index($0, n "{") == 1 {
    split(want, parts, " "); ok = 1
    for (i in parts) if (parts[i] != "" && !index($0, parts[i])) ok = 0
    if (ok) { print $2; exit }
  }' "$M"
}

check_steps() {
  local r=$1
  local steps
  steps=$(jq '.steps | length' "$r")
  assert_cmp "$steps" ">=" 2 "steps in $r"
  for i in $(seq 0 $((steps - 1))); do
    local n intended ok state verdict
    n=$(jq ".steps[$i].number" "$r")
    for field in intended sent ok dropped timeouts; do
      local want got
      want=$(jq ".steps[$i].counts.$field" "$r")
      got=$(scraped "openloop_requests_${field}_total" "step=\"$n\"" 'request=""')
      [[ $got == "$want" ]] || fail "step $n: $field $got scraped, $want in $r: $(grep "step=\"$n\"" "$M" | head -5)"
    done
    local offered
    offered=$(jq ".steps[$i].offered_rps" "$r")
    awk -v a="$(scraped openloop_target_rate "step=\"$n\"" 'request=""')" -v b="$offered" \
      'BEGIN { d = a - b; exit !(d < 1e-6 && d > -1e-6) }' ||
      fail "step $n: target rate $(scraped openloop_target_rate "step=\"$n\"") scraped, the step offers $offered"
    state=$(jq -r ".steps[$i].state" "$r")
    verdict=$([[ $state == INVALID ]] && echo invalid || echo valid)
    [[ $(scraped openloop_verdict "step=\"$n\"" "state=\"$verdict\"") == 1 ]] ||
      fail "step $n ($state): verdict $verdict not 1: $(grep "openloop_verdict{.*step=\"$n\"" "$M")"
  done
  [[ $(scraped openloop_ramp_steps_judged) == "$steps" ]] || fail "steps judged: $(grep ramp_steps_judged "$M")"
  [[ $(scraped openloop_ramp_finished) == 1 ]] || fail "not finished: $(grep ramp_finished "$M")"
  local capacity
  capacity=$(jq -r '.findings.capacity.rps // empty' "$r")
  if [[ -n $capacity ]]; then
    assert_near "$(scraped openloop_ramp_capacity_rps)" "$capacity" 1e-6 \
      "capacity $(scraped openloop_ramp_capacity_rps) scraped, $capacity in $r"
  fi
  # One run id: the file's, each of its runs', and the run_id label of every series.
  local id others
  id=$(jq -r '.run_id' "$r")
  [[ -n $id && $id != null ]] || fail "$r has no run_id"
  [[ $(json "$r" '[.runs[].run_id] | unique | tojson') == "[\"$id\"]" ]] ||
    fail "a run of $r has another run_id than the file's $id: $(jq -c '[.runs[].run_id]' "$r")"
  others=$(grep -v '^#' "$M" | grep -v "run_id=\"$id\"" | head -3 || true)
  [[ -z $others ]] || fail "series without run_id=\"$id\" (the file's): $others"
  local dup
  dup=$(grep -v '^#' "$M" | sed 's/ [^ ]*$//' | sort | uniq -d | head -3)
  [[ -z $dup ]] || fail "series with the same name and labels (Prometheus rejects them): $dup"
  if command -v promtool >/dev/null; then
    promtool check metrics <"$M" >lint.txt 2>&1 || fail "promtool: $(cat lint.txt)"
  fi
}

code=0
"$OPENLOOP" ramp http://127.0.0.1:9/ --simulate '--workers 4 --service 5ms' --from 100/s --hold 2s \
  --metrics-listen nonsense >bad.txt 2>&1 || code=$?
[[ $code == 2 ]] && grep -q -- '--metrics-listen' bad.txt || fail "bad address: exit $code: $(cat bad.txt)"
pass "bad address: exit 2 naming --metrics-listen"

# A staircase in virtual time, every planned step run.
port=$(free_port)
OPENLOOP_RUN_ID=stair-1 timeout 100 "$OPENLOOP" ramp http://127.0.0.1:9/ --simulate '--workers 4 --service 5ms' --from 400/s \
  --step-add 200/s --to 1000/s --hold 2s --warmup 1s --stop-at never -q --json s.json \
  --metrics-listen "127.0.0.1:$port" --metrics-linger 30s >s.txt 2>&1 &
pid=$!
E2E_PIDS+=("$pid")
M=s.prom
scrape_after_file "$M" s.json "$port"
kill -TERM "$pid"
wait "$pid" || true
check_steps s.json
grep -q '^openloop_requests_intended_total{.*step="1",rate="400"' "$M" || fail "no step=\"1\" rate=\"400\" series"
[[ $(jq -r .run_id s.json) == stair-1 ]] || fail "OPENLOOP_RUN_ID=stair-1: the ramp file's run_id is $(jq -r .run_id s.json)"
pass "staircase: each step's counters and verdict as in the ramp file, capacity $(scraped openloop_ramp_capacity_rps)"

# --fresh --refine: one run per step, refinement steps numbered after the planned ones.
port=$(free_port)
timeout 100 "$OPENLOOP" ramp http://127.0.0.1:9/ --simulate '--workers 4 --service 5ms' --from 500/s \
  --step-add 300/s --to 1100/s --hold 2s --warmup 1s --fresh --refine --tol 5% --cooldown 2s --stop-at never -q \
  --json f.json --metrics-listen "127.0.0.1:$port" --metrics-linger 30s >f.txt 2>&1 &
pid=$!
E2E_PIDS+=("$pid")
M=f.prom
scrape_after_file "$M" f.json "$port"
kill -TERM "$pid"
wait "$pid" || true
assert_cmp "$(jq '[.steps[] | select(.refinement)] | length' f.json)" ">=" 1 "refinement steps ran"
check_steps f.json
[[ $(jq -r .run_id f.json) =~ ^r[0-9a-f]{16}$ ]] || fail "a random run id (as run's) expected: $(jq -r .run_id f.json)"
pass "--fresh --refine: every step, refinements included, as in the ramp file"

# On the network: the first step's series appear while it is measured, before it is judged.
start_lab --workers 8 --service 1ms
port=$(free_port)
# One step (what is checked is its series before it is judged; a second step would only add its 3 s). Held 3 s (4 s
# until stop 47): its first second is scraped from about 2 s into the ramp, a second before the step is judged.
"$OPENLOOP" ramp "$LAB_URL/" --from 100/s --to 100/s --hold 3s --warmup 1s --threads 1 --max-lateness 50ms -q \
  --json n.json --metrics-listen "127.0.0.1:$port" >n.txt 2>&1 &
pid=$!
E2E_PIDS+=("$pid")
M=live.prom
seen=""
for _ in $(seq 200); do  # ≤ 20 s; step 1 is measured from 1 s to 4 s
  if curl -sf --max-time 2 "http://127.0.0.1:$port/metrics" >"$M" 2>/dev/null &&
    [[ $(scraped openloop_ramp_steps_judged) == 0 ]] && [[ -n $(scraped openloop_requests_intended_total 'step="1"') ]]; then
    seen=yes
    break
  fi
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
[[ -n $seen ]] || fail "no live step=\"1\" series before the step was judged: $(grep -E 'ramp_|intended' "$M")"
live=$(scraped openloop_requests_intended_total 'step="1"')
[[ $(scraped openloop_ramp_step) == 1 ]] || fail "current step: $(grep '^openloop_ramp_step' "$M")"
code=0
wait "$pid" || code=$?
# 0: a capacity; 1: no step passed (UNSTEADY on a busy machine: the metrics are the point here); 3: every step
# INVALID, accepted only for the generator's lateness (a busy machine), named in every INVALID step's reasons.
[[ $code == 0 || $code == 1 || $code == 3 ]] || fail "ramp exit $code: $(cat n.txt)"
if [[ $code == 3 ]]; then
  [[ $(jq '[.steps[] | select(.state == "INVALID") | .reasons[] | test("^send lateness|^generator CPU")] | all' n.json) == true ]] ||
    fail "INVALID for another reason than the generator's lateness or CPU: $(jq -c '[.steps[].reasons]' n.json)"
fi
final=$(jq '.steps[0].counts.intended' n.json)
assert_cmp "$live" ">=" 100 "live step 1: at least one second of its arrivals"
assert_cmp "$live" "<" "$final" "live step 1: part of the step's final count"
pass "live: step 1 scraped at $live intended before it was judged ($final at the end)"
