# --metrics-listen on probe metastable: each phase of each run has series of its own (labels repeat and phase).
# On virtual time (probe --simulate; the final scrape during --metrics-linger) each phase's intended and ok equal
# the sums over the results file's intervals inside that phase, each run's verdict gauge is the file's verdict,
# and promtool accepts the text. One run id: OPENLOOP_RUN_ID is the file's run_id, each run's, and the run_id label
# of every series; without it the probe file still has one (random), carried by its runs.
# e2e: parallel-safe (no timing judged: see tests/e2e/CMakeLists.txt)
source "$OPENLOOP_E2E_LIB"
require_tools jq curl
cd "$E2E_TMP"
port=$(free_port)
OPENLOOP_RUN_ID=probe-7 "$OPENLOOP" probe metastable http://127.0.0.1:9/ --simulate '--workers 4 --service 100ms' --base 36/s \
  --trigger load:120/s --trigger-for 3s --baseline-for 4s --observe-for 6s --window 3s --warmup 1s --descend 1 \
  --descend-step 80% --descend-for 12s --timeout 30s --json p.json -q \
  --metrics-listen "127.0.0.1:$port" --metrics-linger 30s >p.txt 2>p.err &
pid=$!
E2E_PIDS+=("$pid")
for _ in $(seq 600); do
  [[ -s p.json ]] && break
  sleep 0.1
done
[[ -s p.json ]] || fail "no p.json within 60 s: $(cat p.err)"
curl -sf --max-time 2 "http://127.0.0.1:$port/metrics" >m.txt || fail "no scrape during the linger"
kill -TERM "$pid"
wait "$pid" || true

phases=$(jq '.probe.phases | length' p.json)
assert_cmp "$phases" ">=" 4 "phases: baseline, trigger, observe, descend 1"
for i in $(seq 0 $((phases - 1))); do
  name=$(jq -r ".probe.phases[$i].name" p.json)
  for field in intended ok; do
    want=$(jq --argjson i "$i" --arg f "$field" '.probe.phases[$i] as $p | [.runs[0].results.intervals[]
      | select(.start_s >= $p.start_s - 1e-6 and .start_s + .length_s <= $p.start_s + $p.length_s + 1e-6)
      | .counts[$f]] | add // 0' p.json)
    got=$(awk -v p="phase=\"$name\"" -v n="openloop_requests_${field}_total{" \
      'index($0, n) == 1 && index($0, p) && index($0, "repeat=\"1\"") && index($0, "request=\"\"") {print $NF}' m.txt)
    [[ $got == "$want" ]] || fail "$name: $field $got scraped, $want in p.json: $(grep "phase=\"$name\"" m.txt | head -3)"
  done
done
verdict=$(json p.json .verdict)
grep -q "^openloop_probe_verdict{.*repeat=\"1\",state=\"$verdict\"} 1$" m.txt ||
  fail "verdict $verdict not 1: $(grep openloop_probe_verdict m.txt)"
[[ $(grep -c '^openloop_probe_verdict{.*} 1$' m.txt) == 1 ]] || fail "one verdict state at 1"
dup=$(grep -v '^#' m.txt | sed 's/ [^ ]*$//' | sort | uniq -d | head -3)
[[ -z $dup ]] || fail "series with the same name and labels (Prometheus rejects them): $dup"
if command -v promtool >/dev/null; then
  promtool check metrics <m.txt >lint.txt 2>&1 || fail "promtool: $(cat lint.txt)"
fi
pass "probe: $phases phases, each one's intended and ok as in p.json; verdict $verdict"

[[ $(jq -r .run_id p.json) == probe-7 ]] || fail "OPENLOOP_RUN_ID=probe-7: the probe file's run_id is $(jq -r .run_id p.json)"
[[ $(json p.json '[.runs[].results.run_id] | unique | tojson') == '["probe-7"]' ]] ||
  fail "a run of p.json has another run_id than probe-7: $(jq -c '[.runs[].results.run_id]' p.json)"
others=$(grep -v '^#' m.txt | grep -v 'run_id="probe-7"' | head -3 || true)
[[ -z $others ]] || fail "series without run_id=\"probe-7\" (the file's): $others"
env -u OPENLOOP_RUN_ID "$OPENLOOP" probe metastable http://127.0.0.1:9/ --simulate '--workers 4 --service 100ms' \
  --base 36/s --trigger load:120/s --trigger-for 3s --baseline-for 4s --observe-for 6s --window 3s --warmup 1s \
  --timeout 30s --json q.json -q >q.txt 2>q.err || true
[[ -s q.json ]] || fail "no q.json: $(cat q.err)"
id=$(jq -r .run_id q.json)
[[ -n $id && $id != null && $id != probe-7 ]] || fail "without OPENLOOP_RUN_ID: run_id '$id'"
[[ $(json q.json '[.runs[].results.run_id] | unique | tojson') == "[\"$id\"]" ]] ||
  fail "a run of q.json has another run_id than the file's $id: $(jq -c '[.runs[].results.run_id]' q.json)"
pass "run_id: OPENLOOP_RUN_ID in the file, its runs and every series; else random ($id), carried by the runs"

code=0
"$OPENLOOP" probe metastable http://127.0.0.1:9/ --simulate '--workers 4 --service 100ms' --base 36/s \
  --trigger load:120/s --metrics-listen 127.0.0.1:99999 >bad.txt 2>&1 || code=$?
[[ $code == 2 ]] && grep -q -- '--metrics-listen' bad.txt || fail "bad address: exit $code: $(cat bad.txt)"
pass "bad address: exit 2 naming --metrics-listen"
