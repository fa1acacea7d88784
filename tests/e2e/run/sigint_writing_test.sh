# A Ctrl-C that comes while the results are being written does not kill the process half-way: the run's files are
# written whole, no *.tmp.PID is left, and the exit code is the run's own. To catch the process at that point for
# sure, its standard output is a pipe already full: printing the summary blocks (before the files are written)
# until the test reads the pipe, and the signal is sent while it waits there.
# e2e: light (Ctrl-C while the summary blocks on a full pipe, at 20/s)
source "$OPENLOOP_E2E_LIB"
start_lab --workers 4 --service 1ms
cd "$E2E_TMP"
mkfifo out.fifo
exec {keep}<>out.fifo                        # holds the pipe open both ways
# Fill it: non-blocking writes until it is full, whatever its capacity, then blocking again for the reader.
python3 -c '
import errno, fcntl, os, sys
fd = int(sys.argv[1])
flags = fcntl.fcntl(fd, fcntl.F_GETFL)
fcntl.fcntl(fd, fcntl.F_SETFL, flags | os.O_NONBLOCK)
try:
    for _ in range(1 << 16):
        os.write(fd, b"x" * 4096)
except BlockingIOError:
    pass
fcntl.fcntl(fd, fcntl.F_SETFL, flags)
' "$keep"
"$OPENLOOP" run "$LAB_URL/" --rate 20/s -d 1s --threads 1 -q --json r.json --html r.html >out.fifo 2>err.txt &
pid=$!
blocked=
for _ in $(seq 200); do                       # ≤ 20 s: a 1 s run, then the blocked write of its summary
  if [[ $(awk '{print $1}' "/proc/$pid/syscall" 2>/dev/null) == 1 ]] && [[ ! -e r.json ]]; then
    blocked=1
    break
  fi
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
[[ -n $blocked ]] || fail "the run did not block writing its summary: $(cat err.txt)"
kill -INT "$pid"
sleep 0.3                                     # the watcher takes the signal (no effect on the outcome either way)
kill -INT "$pid"
timeout 20 cat <&"$keep" >/dev/null &
reader=$!
code=0
wait "$pid" || code=$?
kill "$reader" 2>/dev/null || true
[[ -s r.json ]] || fail "the results file was not written (exit $code): $(cat err.txt)"
[[ -s r.html ]] || fail "the HTML report was not written (exit $code)"
[[ -z $(find . -name '*.tmp.*') ]] || fail "a temporary file was left: $(find . -name '*.tmp.*')"
[[ $(json r.json .verdict.interrupted) == false ]] || fail "the run itself was not interrupted"
# The run's own code: 0, or 3 when a loaded machine sent late (then that must be the only reason).
if [[ $code == 3 ]]; then
  only_schedule_reasons r.json ||
    fail "verdict: $(json r.json '.verdict.reasons')"
elif [[ $code != 0 ]]; then
  fail "exit $code, expected the run's own"
fi
grep -q 'finishing writing its results' err.txt || fail "the signal was acknowledged: $(cat err.txt)"
pass "a signal while writing the results: files whole, exit $code"
