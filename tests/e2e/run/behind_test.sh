jq -e --arg n "$abandoned" '.verdict.reasons | any(
  startswith("the generator fell behind its schedule: " + $n + " of 10000000 intended requests") and
  contains("were still unsent one timeout (0.5 s) after the end"))' "$r" >/dev/null ||# A rate accepted but far beyond the machine (10 million a second on one thread, against nginx on loopback): the
# worker can never catch up with its schedule. It must stop by itself one timeout after the end (it once issued
# its whole backlog, overrunning a 3-s run to 25 s at 200k/s), account for every planned arrival (the ones never
# sent as dropped, in generator.abandoned), and say why the run is INVALID: the generator fell behind, not the
# connection pool.
source "$OPENLOOP_E2E_LIB"
port=$(free_port)
start_nginx "$port"
start=$(date +%s%N)
set +e
timeout -k 5 60 "$OPENLOOP" run "http://127.0.0.1:$port/" --rate 10000000/s --duration 1s --timeout 500ms \
  --threads 1 -q --json "$E2E_TMP/r.json" >"$E2E_TMP/out.txt" 2>&1
code=$?
set -e
took_ms=$((($(date +%s%N) - start) / 1000000))
echo "  the run took ${took_ms} ms ($(uptime))"
[[ $code == 3 ]] || fail "exit $code, expected 3 (INVALID; 124: it ran on): $(tail -3 "$E2E_TMP/out.txt")"
# 1 s + one 500-ms timeout, plus start-up and counting the abandoned arrivals on a loaded machine; the backlog
# alone would take minutes at the few tens of thousands a second one thread sends here.
assert_cmp "$took_ms" "<" 20000 "the run stopped about one timeout after its end"
r=$E2E_TMP/r.json
assert_conserved "$r"
assert_cmp "$(json "$r" .summary.counts.intended)" "==" 10000000 "every planned arrival is counted"
abandoned=$(json "$r" .generator.abandoned)
assert_cmp "$abandoned" ">" 9000000 "most arrivals were abandoned"
assert_cmp "$(json "$r" .summary.counts.dropped)" ">=" "$abandoned" "the abandoned arrivals are dropped"
jq -e --arg n "$abandoned" '.verdict.reasons | any(
  startswith("the generator fell behind its schedule: " + $n + " of 10000000 intended requests") and
  contains("were still unsent one timeout (0.5 s) after the end"))' "$r" >/dev/null ||
  fail "the verdict names the abandonment: $(jq -c .verdict.reasons "$r")"
jq -e '.verdict.reasons | any(test("connection pool was full")) | not' "$r" >/dev/null ||
  fail "the pool is not blamed: $(jq -c .verdict.reasons "$r")"
grep -qF "the generator fell behind its schedule" "$E2E_TMP/out.txt" || fail "the terminal says it: $(cat "$E2E_TMP/out.txt")"
pass "a generator far behind its schedule stops one timeout after the end and says so"
