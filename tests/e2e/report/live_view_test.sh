# The live view while `run` runs: on a terminal (a pty via script(1)) two status lines redrawn in place every second,
# with the verdict so far and the latest second's rates, INVALID as soon as drops pass 1 %. (Not a terminal and
# --quiet: live_view_plain_test.sh, which judges no timing and runs beside other tests.)
# e2e: light (the status lines at 50/s; drops forced by a server that never answers)
source "$OPENLOOP_E2E_LIB"
command -v script >/dev/null || { echo "SKIP: script(1) is not installed (util-linux)"; exit 77; }
port=$(free_port)
start_nginx "$port"
cd "$E2E_TMP"
url="http://127.0.0.1:$port/"

# A terminal: redrawn in place (cursor up, erase line), then erased before the summary.
code=0
script -qfec "$OPENLOOP run $url --rate 50/s --duration 3s --threads 1 --json tty.json 2>&1 >/dev/null" /dev/null \
  >tty.out || code=$?
accept_invalid_only_for "$code" tty.json '^send lateness'
grep -q $'\e\[2K''openloop 1s / 3s' tty.out || fail "status line drawn: $(cat -v tty.out | head -5)"
grep -q $'\e\[2A' tty.out || fail "redrawn in place (cursor up 2)"
grep -q 'VALID so far' tty.out || fail "verdict so far on the terminal"
grep -q '0–1s: offered 50.0/s  sent 50.0/s' tty.out || fail "the latest second's rates"

# Drops over 1 % show as INVALID while the run is still going.
blackhole=$(free_port)
python3 - "$blackhole" <<'PY' &
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(64); s.settimeout(0.2)
conns, end = [], time.time() + 20
while time.time() < end:
    try: conns.append(s.accept()[0])
    except OSError: pass
PY
E2E_PIDS+=($!)
wait_port "$blackhole"
script -qfec "$OPENLOOP run http://127.0.0.1:$blackhole/ --rate 100/s --duration 4s --timeout 1s --max-connections 2 --threads 1 2>&1 >/dev/null" /dev/null >drops.out || true
grep -q 'INVALID so far: dropped' drops.out || fail "drops shown as INVALID while running: $(cat -v drops.out | tail -5)"
# Shown before the end: some redraw after the INVALID one still counts time (not only the last frame).
assert_cmp "$(grep -o 'INVALID so far: dropped' drops.out | wc -l)" ">=" 2 "INVALID shown on more than the last frame"
pass "live view: in place on a terminal, plain lines otherwise, silent with --quiet"
