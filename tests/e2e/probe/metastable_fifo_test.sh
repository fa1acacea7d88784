# A load spike against a simulated lab with an unbounded FIFO queue and a client that waits 30 s: the backlog built
# during the spike outlives it, so within a short observe phase the system has not recovered at a load it served
# before: METASTABLE (exit 1), naming the backlog as the sustaining signal, with the lab's own queue depth beside it.
# On virtual time (probe --simulate, deterministic, well under a second); the real-socket probe is
# recovers_lifo_test.sh, the real lab triggers lab_triggers_test.sh.
# e2e: parallel-safe (no timing judged: see tests/e2e/CMakeLists.txt)
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
cd "$E2E_TMP"
# Capacity 40/s; a 3-s spike at 120/s leaves ~240 queued, which drain at only 40 − 20 = 20/s at the base load.
code=0
"$OPENLOOP" probe metastable http://127.0.0.1:9/ --simulate '--workers 1 --service 25ms' --base 20/s \
  --trigger load:120/s --trigger-for 3s --baseline-for 4s --observe-for 6s --window 3s --warmup 1s --timeout 30s \
  --json p.json -q >p.txt 2>p.err || code=$?
cat p.txt
[[ $code == 1 ]] || fail "probe exit $code (expected 1, METASTABLE): $(cat p.err)"
[[ $(json p.json .verdict) == METASTABLE ]] || fail "verdict $(json p.json .verdict)"
[[ $(json p.json .simulated) == true && $(json p.json .service_model.workers) == 1 ]] ||
  fail "the probe's JSON is labelled simulated with its service model"
signal=$(json p.json '.runs[0].signals[0].name')
[[ $signal == *backlog* ]] || fail "the sustaining signal should be the backlog, got \"$signal\""
assert_cmp "$(json p.json '.runs[0].phases[2].stats.in_flight')" ">" 10 "in flight during observe (Little's law)"
assert_cmp "$(json p.json '.runs[0].phases[2].lab_queue_max')" ">" 50 "the lab's own queue during observe"
[[ $(json_or_null p.json '.runs[0].recovery_s') == null ]] || fail "no recovery time for a METASTABLE run"
grep -q '^METASTABLE: did not recover at 20/s' p.txt || fail "terminal verdict sentence"
pass "unbounded FIFO (simulated): METASTABLE, sustained by $signal"

# Bad --simulate input: refused before anything runs, with the lab's own message.
code=0
"$OPENLOOP" probe metastable http://127.0.0.1:9/ --simulate '--wrokers 1' --base 20/s --trigger load:40/s \
  --json bad.json -q >bad.txt 2>bad.err || code=$?
[[ $code == 2 ]] && grep -qF 'unknown lab option "--wrokers"' bad.err || fail "bad --simulate: exit $code: $(cat bad.err)"
[[ ! -e bad.json ]] || fail "a refused probe wrote its JSON"
code=0
"$OPENLOOP" probe metastable http://127.0.0.1:9/ --simulate '' --base 20/s --trigger load:40/s --threads 2 -q \
  >bad.txt 2>bad.err || code=$?
[[ $code == 2 ]] && grep -q 'one worker' bad.err || fail "--simulate with --threads 2: exit $code: $(cat bad.err)"
pass "bad --simulate input exits 2 before anything runs"
