# Hysteresis: a spike leaves a FIFO backlog that drains only slowly at the base load (90 % of capacity), so the
# system has not recovered there within the observe phase; one descending step at a much lower rate lets it drain,
# and a healthy window follows: RECOVERED-AT-LOWER-LOAD (exit 1), naming the rate it recovered at. On virtual time
# (probe --simulate): the procedure's logic, deterministic, in well under a second.
# e2e: parallel-safe (no timing judged: see tests/e2e/CMakeLists.txt)
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
# Capacity 40/s (4 workers × 100 ms). Base 36/s; a 3-s spike at 120/s leaves ~240 queued, which drain at 4/s at the
# base load (none of it in a 6-s observe phase) and at ~33/s at 36 × (1 − 0.8) = 7.2/s.
cd "$E2E_TMP"
code=0
"$OPENLOOP" probe metastable http://127.0.0.1:9/ --simulate '--workers 4 --service 100ms' --base 36/s \
  --trigger load:120/s --trigger-for 3s --baseline-for 4s --observe-for 6s --window 3s --warmup 1s --descend 1 \
  --descend-step 80% --descend-for 12s --timeout 30s --json p.json -q >p.txt 2>p.err || code=$?
cat p.txt
[[ $code == 1 ]] || fail "probe exit $code (expected 1, RECOVERED-AT-LOWER-LOAD): $(cat p.err)"
[[ $(json p.json .verdict) == RECOVERED-AT-LOWER-LOAD ]] || fail "verdict $(json p.json .verdict)"
assert_cmp "$(json p.json '.runs[0].recovered_at_rps')" "<" 8 "recovered only at the descending step's rate"
assert_cmp "$(json p.json '.runs[0].recovered_at_rps')" ">" 6 "recovered at 36 × (1 − 0.8) = 7.2/s"
grep -q '^RECOVERED-AT-LOWER-LOAD' p.txt || fail "terminal verdict sentence"
pass "FIFO backlog (simulated): recovered only at a lower load ($(printf '%.1f' "$(json p.json '.runs[0].recovered_at_rps')")/s)"
