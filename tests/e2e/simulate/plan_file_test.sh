# openloop simulate with a plan file of several scenarios (each scenario's worker against one simulated service)
# and --log-requests (the simulator drains the log as it fills it): results per scenario as a real plan file's
# run writes them, one log line per request outcome, both deterministic apart from timestamps.
# e2e: parallel-safe (no timing judged: see tests/e2e/CMakeLists.txt)
source "$OPENLOOP_E2E_LIB"
cd "$E2E_TMP"
# The target only labels the simulated service: nothing is sent (port 9, discard, is never listened on here).
cat >plan.yaml <<'PLAN'
target: http://127.0.0.1:9/
requests:
  home: GET /
  item: GET /item/{{uniform(1,100)}}
scenarios:
  browse: {model: open, rate: 300/s, duration: 20s, request: home}
  buy: {model: open, rate: 100/s, arrival: constant, duration: 10s, start: 5s, request: item}
  batch: {model: closed, vus: 4, think: 20ms, duration: 15s, request: item}
PLAN
lab='--workers 2 --service exp:2ms --seed 4'
sim() { "$OPENLOOP" simulate plan.yaml --lab "$lab" --no-html "$@"; }

code=0
sim --json a.json --log-requests a.jsonl >out.txt 2>err.txt || code=$?
[[ $code == 0 ]] || fail "simulate plan.yaml: exit $code: $(cat err.txt)"
[[ $(json a.json .simulated) == true ]] || fail "results not labelled simulated"
assert_cmp "$(jq '.scenarios | length' a.json)" == 3 "one result per scenario"
[[ $(jq -c '[.scenarios[].name]' a.json) == '["browse","buy","batch"]' ]] || fail "scenario names: $(jq -c '[.scenarios[].name]' a.json)"
assert_conserved a.json
for i in 0 1 2; do
  jq ".scenarios[$i]" a.json >s$i.json
  assert_conserved s$i.json
  [[ $(json s$i.json .verdict.valid) == true ]] || fail "scenario $i: $(jq -c .verdict s$i.json)"
done
assert_cmp "$(json s1.json .summary.counts.intended)" == 1000 "buy: constant 100/s for 10 s"
assert_cmp "$(json s1.json .offset_s)" == 5 "buy starts 5 s in"
assert_cmp "$(json a.json .summary.counts.intended)" == \
  "$(jq '[.scenarios[].summary.counts.intended] | add' a.json)" "the whole run is its scenarios together"
# The batch users' Little's law: N = X·(R + Z) with 4 users and 20 ms think time, to 5 %.
little=$(jq '.scenarios[2].summary | .throughput_rps * (.response_time_ms.mean + 20) / 1000' a.json)
assert_cmp "$little" ">" 3.8 "closed users: Little's law N = X(R+Z) = 4"
assert_cmp "$little" "<" 4.2 "closed users: Little's law N = X(R+Z) = 4"
grep -q '=== scenario buy ===' out.txt || fail "a summary per scenario: $(head -5 out.txt)"
grep -q '=== all scenarios together ===' out.txt || fail "the combined summary"
pass "a plan file of three scenarios simulated: results per scenario, conserved, Little's law for the users"

intended=$(json a.json .summary.counts.intended)
assert_cmp "$(wc -l <a.jsonl)" == "$intended" "one log line per request of every scenario"
assert_cmp "$(json a.json .summary.request_log.written)" == "$intended" "written count"
assert_cmp "$(json a.json .summary.request_log.dropped)" == 0 "nothing dropped"
jq -e . a.jsonl >/dev/null || fail "every log line is JSON"
assert_cmp "$(jq -s 'map(select(.request == "home")) | length' a.jsonl)" == \
  "$(json a.json '.summary.by_request.home.counts.intended')" "home's lines = home's requests"
assert_cmp "$(jq -s 'map(select(.outcome == "ok")) | length' a.jsonl)" == "$(json a.json .summary.counts.ok)" \
  "ok lines = ok count"
grep -q "request log  $intended lines written   0 dropped" out.txt || fail "summary names the log counts"
pass "--log-requests: one line per request outcome"

sim -q --json b.json --log-requests b.jsonl >/dev/null 2>&1 || fail "second run failed"
strip() { jq -S 'del(.environment.start_unix_s, .environment.start_utc, .scenarios[].environment.start_unix_s, .scenarios[].environment.start_utc)' "$1"; }
diff <(strip a.json) <(strip b.json) >/dev/null || fail "two runs differ: $(diff <(strip a.json) <(strip b.json) | head -5)"
logstrip() { jq -c 'del(.intended_s, .sent_s)' "$1"; }
diff <(logstrip a.jsonl) <(logstrip b.jsonl) >/dev/null || fail "two logs differ beyond their timestamps"
# The log's times are the run's: each line's intended time is its offset in virtual time after the run's start.
first=$(jq -s 'map(.intended_s) | min' a.jsonl)
start=$(json a.json .environment.start_unix_s)
assert_cmp "$(jq -n "$first - $start")" ">=" -0.000001 "no line intended before the run's start (log times to the µs)"
assert_cmp "$(jq -n "$first - $start")" "<" 0.1 "the first arrival at the run's start"
pass "deterministic: two runs' results and logs identical apart from timestamps"

# A plan file's flags as a real plan file's run takes them: --shard runs this shard's part; the workload's and
# --deadline's flags are refused (they were once accepted and silently ignored).
sim -q --json s.json --shard 1/2 >/dev/null 2>&1 || fail "simulate plan.yaml --shard 1/2 failed"
assert_cmp "$(json s.json .scenarios[0].summary.counts.intended)" == 3000 "shard 1/2 of browse: 3000 of 6000 intended"
assert_cmp "$(json s.json .scenarios[0].plan.shard.count)" == 2 "the scenario's plan says it is a shard"
for flag in "--pacing 1s" "--max-rate 10/s" "--deadline 1s"; do
  code=0
  sim -q --json refused.json $flag >out.txt 2>&1 || code=$?
  [[ $code == 2 ]] || fail "simulate plan.yaml $flag: exit $code, expected 2: $(cat out.txt)"
  grep -qF -- "${flag%% *}: " out.txt || fail "simulate plan.yaml $flag: message lacks the flag: $(cat out.txt)"
  [[ ! -e refused.json ]] || fail "simulate plan.yaml $flag wrote results although refused"
done
pass "plan file: --shard honoured, the workload's flags refused"

# A single-URL run fills the log far faster than wall time: 40 000 lines (a ring holds 32 768) all written.
"$OPENLOOP" simulate http://127.0.0.1:9/ --rate 2000/s -d 20s --lab '--workers 4 --service exp:1ms' -q --no-html \
  --json l.json --log-requests - --log-format csv >l.csv 2>l.err || fail "simulate --log-requests -: $(cat l.err)"
head -1 l.csv | grep -q '^intended_s,sent_s,response_ms,' || fail "csv header: $(head -1 l.csv)"
assert_cmp $(($(wc -l <l.csv) - 1)) == 40000 "csv rows = requests"
assert_cmp "$(json l.json .summary.request_log.dropped)" == 0 "nothing dropped"
grep -q 'verdict' l.csv && fail "no summary in the log stream"
grep -q '^verdict: VALID' l.err || fail "the summary goes to standard error"
pass "--log-requests -: 40 000 lines in a fraction of a second, none dropped, summary on standard error"
