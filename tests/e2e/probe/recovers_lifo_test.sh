# A load spike against a lab with a bounded LIFO queue and shedding: the probe sees it recover within seconds at the
# base load, exits 0, and writes a JSON document (verdict, phases, the run's full results) and an HTML page. The
# probe's one real-socket outcome test; the others run on virtual time (probe --simulate).
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
# Capacity 40/s (1 worker × 25 ms); the spike is 3× capacity; at most 20 wait, the rest are refused at once (429).
start_lab --workers 1 --service 25ms --queue lifo --queue-limit 50 --shed-at 20
cd "$E2E_TMP"

code=0
# A first try INCONCLUSIVE for the generator's lateness alone with RECOVERED within 3 s behind it is what the check
# below accepts: it is kept (probe_metastable), not made again (about 13 s).
PROBE_ACCEPTED_WOULD_READ='^RECOVERED ([0-2](\.[0-9]+)?|3(\.0+)?)s after' \
  probe_metastable "$LAB_URL/" --base 20/s --trigger load:120/s --trigger-for 2s --baseline-for 3s --observe-for 6s \
  --window 3s --warmup 1s --timeout 2s --threads 1 --json p.json --html p.html -q || code=$?
cat p.txt
[[ $(json p.json .schema) == openloop.probe/1 ]] || fail "schema"
# RECOVERED (exit 0); or, on a host that woke the generator late (CI, stop 47: send lateness p99 28.5 ms in the
# baseline, the host's wake-ups max 20.8 ms late), INCONCLUSIVE (exit 3) for that reason alone, with the verdict it
# would otherwise read: RECOVERED within 3 s, which is what this checks either way.
if [[ $code == 3 && $PROBE_WOULD_READ =~ ^RECOVERED\ ([0-9.]+)s\ after ]] &&
  grep -q "the generator's send lateness could have decided the verdict" p.txt; then
  recovery=${BASH_REMATCH[1]}
  [[ $(json p.json .verdict) == INCONCLUSIVE ]] || fail "verdict $(json p.json .verdict)"
  echo "note: INCONCLUSIVE for the generator's lateness alone, RECOVERED ${recovery}s after without it ($(uptime))"
else
  [[ $code == 0 ]] || fail "probe exit $code (expected 0, RECOVERED): $(cat p.err)"
  [[ $(json p.json .verdict) == RECOVERED ]] || fail "verdict $(json p.json .verdict)"
  grep -q '^RECOVERED .* after the trigger ended' p.txt || fail "terminal verdict sentence"
  recovery=$(json p.json .recovery_s)
fi
assert_cmp "$recovery" "<=" 3 "recovered within 3 s of the spike's end"
[[ $(json p.json '.runs[0].phases | length') == 3 ]] || fail "three phases"
assert_cmp "$(json p.json '.runs[0].phases[1].stats.goodput_rps')" "<" 60 "the spike was past capacity (goodput)"
assert_cmp "$(json p.json '.runs[0].phases[1].stats.not_ok_fraction')" ">" 0.3 "the spike was shed"
# Each phase's percentiles have 95 % intervals on its own effective n (the trigger's 240 requests were checked for
# independence on their own; the baseline's 60 are too few to check: its intervals are on n).
rt='.runs[0].phases[1].response_time_ms'
[[ $(json p.json "$rt.independence.tested") == true ]] || fail "trigger phase unchecked: $(jq -c "$rt" p.json)"
assert_cmp "$(json p.json "$rt.effective_count")" "<=" "$(json p.json "$rt.count")" "effective n at most n"
assert_cmp "$(json p.json "$rt.p50.ci95[0]")" "<=" "$(json p.json "$rt.p50.value")" "trigger p50 interval's low side"
assert_cmp "$(json p.json "$rt.p50.ci95[1]")" ">=" "$(json p.json "$rt.p50.value")" "trigger p50 interval's high side"
[[ $(json p.json '.runs[0].phases[0].response_time_ms.independence.tested') == false ]] || fail "baseline checked"
grep -q '^  trigger .*p99 .*; 95 % intervals' p.txt || fail "no interval line for the trigger phase"
jq '.runs[0].results' p.json >r.json
assert_conserved r.json
assert_cmp "$(json r.json '.intervals | length')" ">=" 11 "the run's intervals cover every phase"
grep -q 'RECOVERED' p.html && grep -q 'openloop-probe-data' p.html || fail "HTML report lacks the probe section"
if [[ -x /usr/bin/chromium ]]; then  # the page draws offline: the run report's charts and the probe's own
  timeout 60 /usr/bin/chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$E2E_TMP/profile" \
    --virtual-time-budget=5000 --dump-dom "file://$E2E_TMP/p.html" >p.dom 2>/dev/null || fail "chromium exit $?"
  root=$(grep -o '<html[^>]*>' p.dom | head -1)
  [[ $root == *'data-probe-charts-drawn="1"'* && $root == *'data-charts-drawn="4"'* ]] || fail "charts: $root"
  [[ $root != *data-errors* ]] || fail "script errors: $root"
fi
pass "bounded LIFO + shedding: $(grep '^RECOVERED' p.txt | cut -c1-60)..."
