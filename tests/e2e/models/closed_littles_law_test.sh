# A closed run with think time obeys Little's law, N = X·(R + Z), within 5 %, and the results say so.
source "$OPENLOOP_E2E_LIB"
start_lab --workers 4 --service 10ms
"$OPENLOOP" run "$LAB_URL/" --vus 8 --think 50ms --duration 4s --warmup 1s --json "$E2E_TMP/r.json" >"$E2E_TMP/out.txt" ||
  fail "exit $?"
r=$E2E_TMP/r.json
[[ $(json "$r" .model) == closed ]] || fail "model closed"
assert_conserved "$r"
assert_cmp "$(json "$r" .summary.littles_law.error_fraction)" "<" 0.05 "N = X(R+Z) within 5%"
assert_cmp "$(json "$r" .summary.littles_law.think_s)" == 0.05 "Z is the mean think time"
# 8 users at R ≈ 10 ms and Z = 50 ms: X ≈ 8 / 0.06 ≈ 133/s, well below the lab's 400/s.
assert_cmp "$(json "$r" .summary.throughput_rps)" ">" 110 "throughput near N/(R+Z)"
assert_cmp "$(json "$r" .summary.throughput_rps)" "<" 145 "throughput near N/(R+Z)"
grep -q "Little's law" "$E2E_TMP/out.txt" || fail "summary prints Little's law"
pass "Little's law holds: $(jq -c .summary.littles_law "$r")"
