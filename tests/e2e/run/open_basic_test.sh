# An open-model run against nginx applies its load: VALID, every request accounted for, rates as planned.
source "$OPENLOOP_E2E_LIB"
port=$(free_port)
start_nginx "$port"
"$OPENLOOP" run "http://127.0.0.1:$port/" --rate 300/s --duration 3s --warmup 1s --threads 2 \
  --json "$E2E_TMP/r.json" >"$E2E_TMP/out.txt" || fail "exit $? ($(cat "$E2E_TMP/out.txt"))"
r=$E2E_TMP/r.json
[[ $(json "$r" .schema) == openloop.results/1 ]] || fail "schema"
[[ $(json "$r" .verdict.valid) == true ]] || fail "verdict: $(json "$r" '.verdict.reasons')"
assert_conserved "$r"
assert_cmp "$(json "$r" .summary.counts.intended)" == 900 "intended = 300/s x 3 s (constant arrivals)"
assert_cmp "$(json "$r" .summary.counts.ok)" == 900 "every request ok"
assert_cmp "$(json "$r" .warmup.counts.intended)" == 300 "warm-up reported apart"
assert_cmp "$(json "$r" '.intervals | length')" == 3 "one interval per second"
assert_cmp "$(json "$r" .summary.response_time_ms.p50)" ">" 0 "latency measured"
grep -q '^verdict: VALID' "$E2E_TMP/out.txt" || fail "summary starts with the verdict"
pass "open run valid and conserved"
