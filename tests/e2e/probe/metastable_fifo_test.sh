# A load spike against a lab with an unbounded FIFO queue and a client that waits 30 s: the backlog built during the
# spike outlives it, so within a short observe phase the system has not recovered at a load it served before:
# METASTABLE (exit 1), naming the backlog as the sustaining signal, with the lab's own queue depth beside it.
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
# Capacity 40/s; a 3-s spike at 120/s leaves ~240 queued, which drain at only 40 − 20 = 20/s at the base load.
start_lab --workers 1 --service 25ms
cd "$E2E_TMP"
code=0
probe_metastable "$LAB_URL/" --base 20/s --trigger load:120/s --trigger-for 3s --baseline-for 4s --observe-for 6s \
  --window 3s --warmup 1s --timeout 30s --threads 1 --lab-control "$LAB_URL/_lab/config" --json p.json -q || code=$?
cat p.txt
[[ $code == 1 ]] || fail "probe exit $code (expected 1, METASTABLE): $(cat p.err)"
[[ $(json p.json .verdict) == METASTABLE ]] || fail "verdict $(json p.json .verdict)"
signal=$(json p.json '.runs[0].signals[0].name')
[[ $signal == *backlog* ]] || fail "the sustaining signal should be the backlog, got \"$signal\""
assert_cmp "$(json p.json '.runs[0].phases[2].stats.in_flight')" ">" 10 "in flight during observe (Little's law)"
assert_cmp "$(json p.json '.runs[0].phases[2].lab_queue_max')" ">" 50 "the lab's own queue during observe"
[[ $(json p.json '.runs[0].recovery_s') == null ]] || fail "no recovery time for a METASTABLE run"
grep -q '^METASTABLE: did not recover at 20/s' p.txt || fail "terminal verdict sentence"
pass "unbounded FIFO: METASTABLE, sustained by $signal"
