# openloop simulate: bad input refused with exit 2 and nothing run; a run writes run's results files labelled
# simulated; two runs of one command write byte-identical results apart from the wall-clock timestamps.
# e2e: parallel-safe (no timing judged: see tests/e2e/CMakeLists.txt)
source "$OPENLOOP_E2E_LIB"
url=http://127.0.0.1:9/  # only a label: nothing is sent (port 9, discard, is never listened on here)

expect_simulate_usage() {
  local want=$1; shift
  set +e
  "$OPENLOOP" simulate "$@" --json "$E2E_TMP/refused.json" >"$E2E_TMP/out.txt" 2>&1
  local code=$?
  set -e
  [[ $code == 2 ]] || fail "'simulate $*' exit $code, expected 2: $(cat "$E2E_TMP/out.txt")"
  grep -qF -- "$want" "$E2E_TMP/out.txt" || fail "'simulate $*' message lacks '$want': $(cat "$E2E_TMP/out.txt")"
  [[ ! -e $E2E_TMP/refused.json ]] || fail "'simulate $*' wrote results although refused"
}
expect_simulate_usage 'unknown lab option "--wokers"' "$url" --rate 100/s -d 1s --lab '--wokers 4'
expect_simulate_usage 'accepted: listen, workers' "$url" --rate 100/s -d 1s --lab '--wokers 4'
expect_simulate_usage '--lab --workers: "0" is not accepted' "$url" --rate 100/s -d 1s --lab '--workers 0'
expect_simulate_usage '--burn spends real CPU' "$url" --rate 100/s -d 1s --lab '--burn'
expect_simulate_usage 'more than a simulation runs' "$url" --rate 1000000/s -d 2h --lab '--service 0'
expect_simulate_usage 'without end in virtual time' "$url" --vus 10 -d 10s --lab '--service 0'
expect_simulate_usage '--threads' "$url" --rate 100/s -d 1s --threads 2
expect_simulate_usage '--protocol h2: a simulated client speaks HTTP/1.1' "$url" --rate 100/s -d 1s --http2
expect_simulate_usage '--observe host: a simulation observes only its simulated service' "$url" --rate 100/s -d 1s --observe host
# run's flags a simulation has no use for are not taken (they were once accepted and silently ignored).
expect_simulate_usage '--start-at is an option of run, not of simulate' "$url" --rate 100/s -d 1s --start-at 2099-01-01T00:00:00Z
expect_simulate_usage '--run-id is an option of run, not of simulate' "$url" --rate 100/s -d 1s --run-id sim-1
expect_simulate_usage '--metrics-listen is an option of run, lab' "$url" --rate 100/s -d 1s --metrics-listen 127.0.0.1:0
expect_simulate_usage '--until is an option of run, not of simulate' "$url" --rate 100/s -d 1s --until p99:±5% --max-duration 3s
pass "bad input refused, nothing run"

run_sim() {
  "$OPENLOOP" simulate "$url" --rate 500/s -d 10s --quiet --json "$1" --hlog "$2" --no-html \
    --lab '--workers 1 --service 1ms --stall 500ms/2s' >/dev/null
}
set +e
run_sim "$E2E_TMP/a.json" "$E2E_TMP/a.hlog"
code=$?
set -e
[[ $code == 0 ]] || fail "simulate exit $code, expected 0"
a=$E2E_TMP/a.json
[[ $(json "$a" .simulated) == true ]] || fail "results not labelled simulated"
[[ $(json "$a" '.service_model.stall') == 500ms/2s ]] || fail "service model not recorded: $(jq -c .service_model "$a")"
assert_conserved "$a"
assert_cmp "$(json "$a" .summary.counts.completed)" == 5000 "every request of 10 s at 500/s completed"
assert_cmp "$(json "$a" .summary.response_time_ms.p99)" ">" 489 "open p99 behind the stalls (501 − k ms)"
assert_cmp "$(json "$a" .summary.response_time_ms.p99)" "<" 493 "open p99 behind the stalls (501 − k ms)"
[[ $(json "$a" .verdict.valid) == true ]] || fail "verdict: $(jq -c .verdict "$a")"
"$OPENLOOP" report "$a" >/dev/null || fail "report cannot read a simulated results file"
pass "simulated results written, labelled and readable"

run_sim "$E2E_TMP/b.json" "$E2E_TMP/b.hlog"
strip() { jq -S 'del(.environment.start_unix_s, .environment.start_utc)' "$1"; }
diff <(strip "$E2E_TMP/a.json") <(strip "$E2E_TMP/b.json") >/dev/null || fail "two runs differ: $(diff <(strip "$E2E_TMP/a.json") <(strip "$E2E_TMP/b.json") | head -5)"
diff <(grep -v '^#' "$E2E_TMP/a.hlog") <(grep -v '^#' "$E2E_TMP/b.hlog") >/dev/null || fail "two .hlog files differ"
pass "deterministic: two runs identical apart from timestamps"

# A request mix (--targets) reaches the model's cache by path: two paths in turn miss a 1-key cache every
# time (5 ms each) and hit a 2-key one after the first two.
printf 'GET %sa\n\nGET %sb\n' "$url" "$url" >"$E2E_TMP/targets.txt"
for keys in 1 2; do
  "$OPENLOOP" simulate --targets "$E2E_TMP/targets.txt" --rate 100/s -d 5s -q --no-html --json "$E2E_TMP/t$keys.json" \
    --lab "--cache $keys --hit 0 --miss 5ms" >/dev/null
done
assert_cmp "$(json "$E2E_TMP/t1.json" .summary.response_time_ms.mean)" ">" 4.99 "a 1-key cache misses every time"
assert_cmp "$(json "$E2E_TMP/t2.json" .summary.response_time_ms.mean)" "<" 0.03 "a 2-key cache hits after two misses"
pass "the cache key is the request's path"

# The single-key warning is about a cache: a simulated lab has one only with --cache, so one URL against the model
# alone says nothing (a.json above), and against a cache it warns.
[[ $(jq '[.warnings[] | select(test("measured a cache"))] | length' "$a") == 0 ]] ||
  fail "a simulated lab without a cache warned of one: $(jq -c .warnings "$a")"
"$OPENLOOP" simulate "$url" --rate 200/s -d 2s -q --no-html --json "$E2E_TMP/cached.json" --lab '--cache 10' >/dev/null
[[ $(jq '[.warnings[] | select(test("measured a cache"))] | length' "$E2E_TMP/cached.json") == 1 ]] ||
  fail "one URL against a simulated cache did not warn once: $(jq -c .warnings "$E2E_TMP/cached.json")"
pass "the single-key warning only where a cache is in play"

# The legend under the summary: on a terminal by default (not here: stdout is a file), with --explain always.
"$OPENLOOP" simulate "$url" --rate 100/s -d 1s --no-html --lab '--workers 1' >"$E2E_TMP/plain.txt" 2>/dev/null
! grep -q 'what the summary says' "$E2E_TMP/plain.txt" || fail "a legend in a summary written to a file"
"$OPENLOOP" simulate "$url" --rate 100/s -d 1s --no-html --lab '--workers 1' --explain >"$E2E_TMP/legend.txt" 2>/dev/null
for want in 'what the summary says' '^  response time   from each request' '^  goodput ' '^  VALID '; do
  grep -q -- "$want" "$E2E_TMP/legend.txt" || fail "--explain: no /$want/: $(cat "$E2E_TMP/legend.txt")"
done
expect_simulate_usage 'excludes' "$url" --rate 100/s -d 1s --explain --no-explain
pass "--explain prints the legend; a file gets none unless asked"

# --abort-on-slo judges every interval of virtual time: p99<=10ms against one 10-ms worker at 150/s is certain to
# fail within seconds, so a 20-s run stops early, exit 1, naming the SLO (not an interruption).
code=0
"$OPENLOOP" simulate "$url" --lab '--workers 1 --service 10ms' --rate 150/s -d 20s --slo 'p99<=10ms' --abort-on-slo \
  -q --json "$E2E_TMP/abort.json" >"$E2E_TMP/abort.txt" 2>&1 || code=$?
[[ $code == 1 ]] || fail "--abort-on-slo: exit $code, expected 1: $(cat "$E2E_TMP/abort.txt")"
[[ $(json "$E2E_TMP/abort.json" .verdict.aborted_by_slo) == 'p99<=10ms' ]] || fail "aborted_by_slo names the SLO"
[[ $(json "$E2E_TMP/abort.json" .verdict.interrupted) == false ]] || fail "an SLO's stop is not an interruption"
assert_cmp "$(json "$E2E_TMP/abort.json" .summary.counts.intended)" "<" 1500 "stopped within 10 s of virtual time"
grep -q 'stopped early (--abort-on-slo): p99<=10ms was certain to fail' "$E2E_TMP/abort.txt" || fail "summary line"
pass "--abort-on-slo stops a simulation at the interval its SLO became certain to fail"
