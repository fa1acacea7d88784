# Ctrl-C on a terminal: the live view shows "interrupted: stopping" as a line of its own while in-flight requests
# finish (no stray line written between its redrawn lines), erases itself, and the summary ends with the
# interruption. Every response takes 1.5 s, so the wait for in-flight requests outlasts the view's 100 ms check.
# e2e: light (the terminal view's lines at 10/s with 1.5-s responses)
source "$OPENLOOP_E2E_LIB"
require_tools script
start_lab --workers 64 --service 1500ms
cd "$E2E_TMP"
script -qfec "$OPENLOOP run $LAB_URL/ --rate 10/s --duration 30s --threads 1 --timeout 5s 2>&1 >$E2E_TMP/summary.txt" \
  /dev/null >tty.out &
spid=$!
E2E_PIDS+=("$spid")
opid=
for _ in $(seq 200); do  # ≤ 10 s for the run to start and draw its first line
  opid=$(pgrep -f "^$OPENLOOP run $LAB_URL/ --rate 10/s" || true)
  [[ -n $opid ]] && grep -q 'openloop 1s / 30s' tty.out && break
  sleep 0.05
done
[[ -n $opid ]] || fail "the run did not start: $(cat -v tty.out | head -3)"
kill -INT "$opid"
code=0
wait "$spid" || code=$?
[[ $code == 130 ]] || fail "exit $code, expected 130 (script passes the run's exit code on)"
grep -aq $'\e\[2Kinterrupted: stopping; waiting for in-flight requests' tty.out ||
  fail "no interrupted line in the live view: $(cat -v tty.out | tail -5)"
! grep -aq '^interrupted: stopping' tty.out || fail "a stray interrupted line between the live view's lines"
tail -n1 summary.txt | grep -q '^interrupted: stopped by a signal' || fail "summary's last line: $(tail -n2 summary.txt)"
pass "interruption shown in the live view and at the end of the summary"
