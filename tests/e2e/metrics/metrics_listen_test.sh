# --metrics-listen: while a run goes, GET /metrics serves its live state (Prometheus text; OpenMetrics on
# request, ending in # EOF), counters within the plan, the verdict so far (one state at 1) and
# classic buckets cumulative up to +Inf = _count; another path is 404; a bad address exits 2 before anything is
# sent; SIGTERM still interrupts the run cleanly (exit 130).
# e2e: parallel-safe (scraped counters within the plan; exit codes)
source "$OPENLOOP_E2E_LIB"
cd "$E2E_TMP"
start_lab --workers 50 --service 2ms

expect_usage "--metrics-listen" "$LAB_URL/" --rate 10/s -d 1s --metrics-listen nonsense
[[ $(lab_query .arrivals) == 0 ]] || fail "a request reached the lab after a bad --metrics-listen"
pass "bad address: exit 2, nothing sent"

port=$(free_port)
"$OPENLOOP" run "$LAB_URL/" --rate 200/s -d 4s --warmup 0s -q --metrics-listen "127.0.0.1:$port" --json r.json \
  >run.txt 2>&1 &
run_pid=$!
E2E_PIDS+=("$run_pid")
url=http://127.0.0.1:$port/metrics
# Bounded wait (≤ 10 s) for two progress reports: intervals are final a second or more after they end.
for _ in $(seq 100); do
  if curl -sf --max-time 2 "$url" >m.txt 2>/dev/null && grep -q '^openloop_progress_reports{.*} [2-9]' m.txt; then
    break
  fi
  sleep 0.1
done
grep -q '^openloop_progress_reports{.*} [2-9]' m.txt || fail "no second progress report within 10 s: $(head -c 600 m.txt)"
value() { awk -v n="$1" 'index($0, n "{") == 1 && $0 !~ /le=/ {print $2; exit}' m.txt; }
intended=$(value openloop_requests_intended_total)
assert_cmp "$intended" ">=" 200 "intended so far: at least one second's arrivals"
assert_cmp "$intended" "<=" 800 "intended so far: within the plan"
assert_cmp "$(value openloop_target_rate)" == 200 "target rate"
# Keep-alive connections to the lab stay open while the run goes: at least one (checked against the run's peak
# below, once r.json is written).
connections=$(value openloop_connections_open)
assert_cmp "$connections" ">=" 1 "connections open"
# The verdict so far: exactly one state is 1, and it is no longer "waiting" once an interval is final (valid or
# invalid: a busy machine may break the lateness bound).
states=$(awk '/^openloop_verdict\{/ && $2 == 1 {n++} END {print n + 0}' m.txt)
[[ $states == 1 ]] || fail "openloop_verdict: $states states at 1: $(grep openloop_verdict m.txt)"
grep -q '^openloop_verdict{.*state="waiting"} 0$' m.txt || fail "still waiting: $(grep openloop_verdict m.txt)"
grep -q '^openloop_verdict{.*state="valid"} 1$' m.txt || grep -q '^openloop_verdict{.*state="invalid"} 1$' m.txt ||
  fail "neither valid nor invalid: $(grep openloop_verdict m.txt)"
grep -q '^# TYPE openloop_response_time_seconds histogram$' m.txt || fail "no response-time histogram"
inf=$(awk '/^openloop_response_time_seconds_bucket\{.*le="\+Inf"/ {print $2}' m.txt)
[[ $inf == "$(value openloop_response_time_seconds_count)" ]] || fail "+Inf bucket $inf != _count"
awk '/^openloop_response_time_seconds_bucket\{/ { if ($2 < last) bad = 1; last = $2 } END { exit bad }' m.txt ||
  fail "buckets not cumulative: $(grep response_time_seconds_bucket m.txt)"
pass "live text format: counters within the plan, cumulative buckets, +Inf = count"

ct=$(curl -sf --max-time 2 -H 'Accept: application/openmetrics-text; version=1.0.0' -o om.txt -w '%{content_type}' "$url")
[[ $ct == application/openmetrics-text* ]] || fail "OpenMetrics content type: $ct"
[[ $(tail -n1 om.txt) == "# EOF" ]] || fail "OpenMetrics text does not end in # EOF"
grep -q '^# TYPE openloop_requests_intended counter$' om.txt || fail "OpenMetrics counter family name"
[[ $(curl -s --max-time 2 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/other") == 404 ]] || fail "not 404"
pass "OpenMetrics on request; other paths 404"

code=0
wait "$run_pid" || code=$?
accept_invalid_only_for "$code" r.json '^send lateness'
assert_cmp "$(json r.json .summary.counts.intended)" ">=" "$intended" "the results file holds at least what was scraped"
assert_cmp "$connections" "<=" "$(json r.json .generator.peak_connections)" "connections open within the run's peak"
pass "the run ends normally with the endpoint"

# SIGTERM (as Ctrl-C; a background job ignores SIGINT) while the endpoint runs (its thread starts before the
# run's signal watcher): the run is interrupted, its results written, exit 130; never killed by the signal's
# default action.
port=$(free_port)
"$OPENLOOP" run "$LAB_URL/" --rate 100/s -d 30s --warmup 0s -q --metrics-listen "127.0.0.1:$port" --json int.json \
  >int.txt 2>&1 &
run_pid=$!
E2E_PIDS+=("$run_pid")
for _ in $(seq 100); do
  curl -sf --max-time 2 "http://127.0.0.1:$port/metrics" >m.txt 2>/dev/null &&
    grep -q '^openloop_progress_reports{.*} [1-9]' m.txt && break
  sleep 0.1
done
grep -q '^openloop_progress_reports{.*} [1-9]' m.txt || fail "no progress report within 10 s"
kill -TERM "$run_pid"
code=0
wait "$run_pid" || code=$?
[[ $code == 130 ]] || fail "SIGTERM: exit $code, expected 130: $(cat int.txt)"
[[ $(json int.json .verdict.interrupted) == true ]] || fail "int.json not marked interrupted"
pass "SIGTERM with the endpoint running: interrupted, results written, exit 130"
