# A rate no machine can generate is refused before anything is sent (exit 2, the message names the rate and the
# maximum), from flags and from a scenario file. A very high rate that is accepted but cannot be kept up with
# (the worker always behind its schedule) still stops on Ctrl-C: two SIGINTs end the run promptly (it once ran on
# for minutes inside the loop issuing due arrivals) with complete, conserved results and exit 130.
source "$OPENLOOP_E2E_LIB"
port=$(free_port)
# A server that accepts, counts connections in a file (replaced whole, so a reader never sees it half written), and
# never answers.
python3 - "$port" "$E2E_TMP/accepted" <<'PY' &
import os, socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(256)
s.settimeout(0.1)
conns = []
end = time.time() + 100
while time.time() < end:
    try:
        conns.append(s.accept()[0])
        open(sys.argv[2] + ".tmp", "w").write(str(len(conns)))
        os.replace(sys.argv[2] + ".tmp", sys.argv[2])
    except OSError: pass
PY
E2E_PIDS+=($!)
wait_port "$port"
accepted() { cat "$E2E_TMP/accepted" 2>/dev/null || echo 0; }
# wait_port's probe is the first connection; wait until the server has counted it.
for _ in $(seq 100); do (($(accepted) >= 1)) && break; sleep 0.05; done
probes=$(accepted)
(( probes >= 1 )) || fail "the server did not count wait_port's connection within 5 s"
url=http://127.0.0.1:$port/

# 1. Refused before anything is sent, whatever the path: flags, then a scenario file.
set +e
timeout -k 5 30 "$OPENLOOP" run "$url" --rate 99999999999/s -d 1s --threads 1 >"$E2E_TMP/out.txt" 2>&1
code=$?
set -e
[[ $code == 2 ]] || fail "--rate 99999999999/s: exit $code, expected 2 (124: it hung): $(tail -3 "$E2E_TMP/out.txt")"
grep -qF "99999999999/s" "$E2E_TMP/out.txt" || fail "the message names the rate: $(cat "$E2E_TMP/out.txt")"
grep -qF "10000000/s per worker thread" "$E2E_TMP/out.txt" || fail "the message names the maximum: $(cat "$E2E_TMP/out.txt")"
grep -qF -- "--rate" "$E2E_TMP/out.txt" || fail "the message names the flag: $(cat "$E2E_TMP/out.txt")"
pass "--rate 99999999999/s refused with exit 2"
cat >"$E2E_TMP/plan.yaml" <<YAML
target: $url
requests:
  one: GET /
scenarios:
  flood:
    model: open
    rate: 99999999999/s
    duration: 1s
    request: one
YAML
set +e
timeout -k 5 30 "$OPENLOOP" run "$E2E_TMP/plan.yaml" --threads 1 >"$E2E_TMP/out.txt" 2>&1
code=$?
set -e
[[ $code == 2 ]] || fail "scenario file: exit $code, expected 2: $(tail -3 "$E2E_TMP/out.txt")"
grep -qF "scenario 'flood'" "$E2E_TMP/out.txt" || fail "the message names the scenario: $(cat "$E2E_TMP/out.txt")"
pass "a scenario file's absurd rate refused with exit 2"
(($(accepted) == probes)) || fail "a refused run connected $(($(accepted) - probes)) time(s)"
pass "nothing was sent"

# 2. The highest accepted rate on one thread: the worker can never catch up with its schedule. The server holds
# every request, so the first SIGINT waits for them (--timeout 30s) and only the second ends the run.
"$OPENLOOP" run "$url" --rate 10000000/s --threads 1 --duration 20s --timeout 30s --max-connections 32 -q \
  --json "$E2E_TMP/r.json" >"$E2E_TMP/run.txt" 2>&1 &
pid=$!
E2E_PIDS+=("$pid")
for _ in $(seq 100); do (($(accepted) > probes)) && break; sleep 0.05; done
(($(accepted) > probes)) || fail "the run did not connect within 5 s"
sleep 1
kill -INT "$pid"
sleep 0.5
kill -INT "$pid"
second=$(date +%s%N)
for _ in $(seq 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
if kill -0 "$pid" 2>/dev/null; then
  kill -KILL "$pid"
  fail "still running 10 s after the second SIGINT"
fi
set +e
wait "$pid"
code=$?
set -e
took_ms=$((($(date +%s%N) - second) / 1000000))
echo "  exited ${took_ms} ms after the second SIGINT"
[[ $code == 130 ]] || fail "exit $code, expected 130: $(tail -3 "$E2E_TMP/run.txt")"
assert_cmp "$took_ms" "<" 3000 "the run ended promptly after the second SIGINT"
r=$E2E_TMP/r.json
[[ $(json "$r" .verdict.interrupted) == true ]] || fail "marked interrupted"
assert_conserved "$r"
assert_cmp "$(json "$r" .summary.counts.intended)" ">" 1000 "the arrivals issued are counted"
assert_cmp "$(json "$r" .summary.counts.unfinished)" ">=" 1 "the held requests are unfinished"
assert_cmp "$(json "$r" '.intervals | length')" ">=" 1 "intervals written"
pass "two SIGINTs end a run that cannot keep up, results complete"
