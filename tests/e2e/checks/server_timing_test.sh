# The lab answers with `Server-Timing: queue;dur=X, app;dur=Y` from its model. With a constant 2 ms service on
# one worker, under light load (ρ 0.2) and heavy load (ρ 0.85, Poisson arrivals): the server-reported service
# time (metric app) stays at the configured 2 ms at both loads, the queue part and the time outside the
# service grow with the load, and the server never claims more than the client saw (queue + app ≤ response
# time: no negative outside-the-server time) and no header is unreadable.
source "$OPENLOOP_E2E_LIB"
require_tools jq
start_lab --workers 1 --service 2ms
run_at() { # RATE NAME [ARGS...]: a 4 s Poisson run, results in $E2E_TMP/NAME.json
  local rate=$1 name=$2 code=0
  shift 2
  "$OPENLOOP" run "$LAB_URL/" --rate "$rate" --arrival poisson --duration 4s --threads 1 --slo none \
    --json "$E2E_TMP/$name.json" "$@" >"$E2E_TMP/$name.txt" || code=$?
  accept_invalid_only_for "$code" "$E2E_TMP/$name.json" '^send lateness'
}
run_at 100/s light_sum
run_at 100/s light_app --server-timing-metric app
run_at 425/s heavy_app --server-timing-metric app
run_at 425/s heavy_queue --server-timing-metric queue
run_at 100/s light_queue --server-timing-metric queue

for name in light_sum light_app heavy_app heavy_queue light_queue; do
  r=$E2E_TMP/$name.json
  assert_cmp "$(json "$r" .summary.server_timing.responses)" == "$(json "$r" .summary.counts.completed)" \
    "$name: every response carried a usable Server-Timing"
  assert_cmp "$(json "$r" .summary.server_timing.malformed)" == 0 "$name: no unreadable header"
  assert_cmp "$(json "$r" .summary.server_timing.negative_outside)" == 0 \
    "$name: the server never reports more than the response took"
done
pass "every response timed by the server, none negative outside it"

# The sum (queue + app) is at least the 2 ms service, and the rest of the response time is what the network and
# the client add: small at light load.
assert_cmp "$(json "$E2E_TMP/light_sum.json" .summary.server_timing.server_time_ms.p50)" ">=" 1.98 "sum ≥ service"

# Service time: the configured constant 2 ms at both loads (2 significant digits: ±1 %).
for name in light_app heavy_app; do
  for p in p50 p99; do
    v=$(json "$E2E_TMP/$name.json" ".summary.server_timing.server_time_ms.$p")
    assert_cmp "$v" ">=" 1.97 "$name: app $p at the configured 2 ms"
    assert_cmp "$v" "<=" 2.03 "$name: app $p at the configured 2 ms"
  done
done
pass "service time stays at the configured 2 ms under rising load"

# Queueing grows with the load: M/D/1 at ρ 0.85 waits 5.7 ms on average (ρS / 2(1−ρ)), at ρ 0.2 0.25 ms.
lq=$(json "$E2E_TMP/light_queue.json" .summary.server_timing.server_time_ms.p90)
hq=$(json "$E2E_TMP/heavy_queue.json" .summary.server_timing.server_time_ms.p90)
assert_cmp "$hq" ">" "$(awk -v a="$lq" 'BEGIN { print 4 * a + 2 }')" "queue p90 grows with load (light $lq ms)"
lo=$(json "$E2E_TMP/light_app.json" .summary.server_timing.outside_server_ms.p90)
ho=$(json "$E2E_TMP/heavy_app.json" .summary.server_timing.outside_server_ms.p90)
assert_cmp "$ho" ">" "$(awk -v a="$lo" 'BEGIN { print 2 * a + 2 }')" "outside-the-service p90 grows (light $lo ms)"
pass "only the queue part grows: queue p90 $lq → $hq ms, outside the service p90 $lo → $ho ms"

# The summary, the .hlog tags and the intervals carry it.
grep -q '^server-timing (' "$E2E_TMP/heavy_app.txt" || fail "summary: no server-timing block"
grep -q 'outside server' "$E2E_TMP/heavy_app.txt" || fail "summary: no outside-server line"
[[ $(jq '[.intervals[] | select(.server_timing.responses > 0)] | length' "$E2E_TMP/heavy_app.json") -ge 3 ]] ||
  fail "intervals lack server_timing"
"$OPENLOOP" report "$E2E_TMP/heavy_app.json" -f hlog -o "$E2E_TMP/h.hlog"
"$OPENLOOP" report "$E2E_TMP/heavy_app.json" -f html -o "$E2E_TMP/h.html"
grep -q 'id="server-timing"' "$E2E_TMP/h.html" || fail "HTML: no Server-Timing section"
grep -q 'Tag=server_time,' "$E2E_TMP/h.hlog" || fail ".hlog: no server_time tag"
grep -q 'Tag=outside_server,' "$E2E_TMP/h.hlog" || fail ".hlog: no outside_server tag"
pass "summary, intervals, .hlog and HTML carry the server's time"

expect_usage '--server-timing-metric: "a b" is not a metric name' "$LAB_URL/" --rate 10/s --duration 1s \
  --server-timing-metric 'a b'
pass "a bad metric name is refused"
