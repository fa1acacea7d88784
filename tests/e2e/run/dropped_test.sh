# With --max-connections 2 against a server that accepts but never answers, arrivals are dropped and counted,
# the run is INVALID (exit 3) and every intended request is accounted for.
# e2e: parallel-safe (drops and timeouts forced by a server that never answers)
source "$OPENLOOP_E2E_LIB"
port=$(free_port)
python3 - "$port" <<'PY' &
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(64)
conns = []
s.settimeout(0.2)
end = time.time() + 20
while time.time() < end:
    try: conns.append(s.accept()[0])
    except OSError: pass
PY
E2E_PIDS+=($!)
wait_port "$port"
set +e
"$OPENLOOP" run "http://127.0.0.1:$port/" --rate 100/s --duration 2s --timeout 1s --max-connections 2 --threads 1 \
  --json "$E2E_TMP/r.json" >"$E2E_TMP/out.txt"
code=$?
set -e
r=$E2E_TMP/r.json
[[ $code == 3 ]] || fail "exit code $code, expected 3 (invalid run)"
assert_conserved "$r"
[[ $(json "$r" .verdict.valid) == false ]] || fail "verdict should be INVALID"
json "$r" '.verdict.reasons[]' | grep -q dropped || fail "reason names the drops"
assert_cmp "$(json "$r" .summary.counts.dropped)" ">=" 180 "most of 200 arrivals dropped"
assert_cmp "$(json "$r" .summary.counts.timeouts)" ">=" 2 "the requests that got a connection timed out"
assert_cmp "$(json "$r" .summary.counts.completed)" == 0 "nothing completed"
grep -q '^verdict: INVALID' "$E2E_TMP/out.txt" || fail "summary starts with INVALID"
pass "drops counted, run invalid"

# The same saturation with --on-saturation queue: nothing is dropped; arrivals wait for a connection (the wait
# shows as send lateness) and time out at their deadline (intended + timeout).
set +e
"$OPENLOOP" run "http://127.0.0.1:$port/" --rate 100/s --duration 2s --timeout 1s --max-connections 2 --threads 1 \
  --on-saturation queue --json "$E2E_TMP/q.json" >/dev/null
set -e
q=$E2E_TMP/q.json
assert_conserved "$q"
assert_cmp "$(json "$q" .summary.counts.dropped)" == 0 "queue mode drops nothing"
assert_cmp "$(json "$q" .summary.counts.timeouts)" == 200 "every arrival timed out at its deadline"
assert_cmp "$(json "$q" .summary.send_lateness_ms.p50)" ">=" 500 "queued requests waited for a connection"
assert_cmp "$(json "$q" .summary.response_time_ms.max)" "<=" 1001 "timeouts are censored at the deadline"
pass "queue mode: waits, then times out at the deadline"
