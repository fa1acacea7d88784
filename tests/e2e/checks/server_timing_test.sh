# The lab answers with `Server-Timing: queue;dur=X, app;dur=Y` from its model; over real sockets. With a constant
# 2 ms service on one worker, a light run (ρ 0.2, every metric summed) and a heavy one (ρ 0.85, Poisson arrivals,
# metric app): every response is timed, the server never claims more than the client saw (no negative time
# outside it, the queue part included), the service part stays at the configured 2 ms under load while the time
# outside it grows, and the summary, intervals, .hlog and HTML carry it. The split under rising load is checked
# against queueing theory on virtual time (tests/sim/server_timing_test.cpp).
source "$OPENLOOP_E2E_LIB"
require_tools jq
start_lab --workers 1 --service 2ms
run_at() { # RATE NAME [ARGS...]: a 3 s Poisson run, results in $E2E_TMP/NAME.json
  local rate=$1 name=$2 code=0
  shift 2
  "$OPENLOOP" run "$LAB_URL/" --rate "$rate" --arrival poisson --duration 3s --threads 1 --slo none \
    --json "$E2E_TMP/$name.json" "$@" >"$E2E_TMP/$name.txt" || code=$?
  accept_invalid_only_for "$code" "$E2E_TMP/$name.json" '^send lateness'
}
run_at 100/s light
run_at 425/s heavy --server-timing-metric app

for name in light heavy; do
  r=$E2E_TMP/$name.json
  assert_cmp "$(json "$r" .summary.server_timing.responses)" == "$(json "$r" .summary.counts.completed)" \
    "$name: every response carried a usable Server-Timing"
  assert_cmp "$(json "$r" .summary.server_timing.malformed)" == 0 "$name: no unreadable header"
  assert_cmp "$(json "$r" .summary.server_timing.negative_outside)" == 0 \
    "$name: the server never reports more than the response took"
done
pass "every response timed by the server, none negative outside it"

# queue + app is at least the 2 ms service.
assert_cmp "$(json "$E2E_TMP/light.json" .summary.server_timing.server_time_ms.p50)" ">=" 1.98 "sum ≥ service"
# Service time: the configured constant 2 ms under load (2 significant digits: ±1 %).
for p in p50 p99; do
  v=$(json "$E2E_TMP/heavy.json" ".summary.server_timing.server_time_ms.$p")
  assert_cmp "$v" ">=" 1.97 "heavy: app $p at the configured 2 ms"
  assert_cmp "$v" "<=" 2.03 "heavy: app $p at the configured 2 ms"
done
# Outside the service: the network alone at light load (queue + app summed), the queue too under load (M/D/1
# at ρ 0.85 waits 5.7 ms on average).
lo=$(json "$E2E_TMP/light.json" .summary.server_timing.outside_server_ms.p90)
ho=$(json "$E2E_TMP/heavy.json" .summary.server_timing.outside_server_ms.p90)
assert_cmp "$ho" ">" "$(awk -v a="$lo" 'BEGIN { print 2 * a + 2 }')" "outside-the-service p90 grows (light $lo ms)"
pass "service at 2 ms under load; outside it p90 $lo → $ho ms"

# The summary, the .hlog tags and the intervals carry it.
grep -q '^server-timing (' "$E2E_TMP/heavy.txt" || fail "summary: no server-timing block: $(cat "$E2E_TMP/heavy.txt")"
grep -q 'outside server' "$E2E_TMP/heavy.txt" || fail "summary: no outside-server line"
[[ $(jq '[.intervals[] | select(.server_timing.responses > 0)] | length' "$E2E_TMP/heavy.json") -ge 2 ]] ||
  fail "intervals lack server_timing"
"$OPENLOOP" report "$E2E_TMP/heavy.json" -f hlog -o "$E2E_TMP/h.hlog"
"$OPENLOOP" report "$E2E_TMP/heavy.json" -f html -o "$E2E_TMP/h.html"
grep -q 'id="server-timing"' "$E2E_TMP/h.html" || fail "HTML: no Server-Timing section"
grep -q 'Tag=server_time,' "$E2E_TMP/h.hlog" || fail ".hlog: no server_time tag"
grep -q 'Tag=outside_server,' "$E2E_TMP/h.hlog" || fail ".hlog: no outside_server tag"
pass "summary, intervals, .hlog and HTML carry the server's time"

expect_usage '--server-timing-metric: "a b" is not a metric name' "$LAB_URL/" --rate 10/s --duration 1s \
  --server-timing-metric 'a b'
pass "a bad metric name is refused"
