#!/usr/bin/env bash
# The live view of an observed run (a terminal: a pty via script(1)): while the run goes on, a line of its own with
# the sampler's latest values: the target's CPU of its allowed cores and run-queue wait, the generator's own CPU.
# e2e: light (a live line on a terminal at 100/s; the lab's CPU far below a core)
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
command -v script >/dev/null || { echo "SKIP: script(1) is not installed (util-linux)"; exit 77; }
require_tools jq timeout
start_lab --workers 4 --service 1ms
cd "$E2E_TMP"
code=0
# A wide terminal (the pty is 0 columns wide otherwise, and lines are cut to 100): the whole line is checked.
timeout 30 script -qfec "stty cols 200; $OPENLOOP run $LAB_URL/ --rate 100/s --duration 3s -t 1 --max-lateness 100ms \
  --observe pid:$LAB_PID --json tty.json --no-html 2>&1 >/dev/null" /dev/null >tty.out || code=$?
accept_invalid_only_for "$code" tty.json '^send lateness'  # the generator's own, on a busy box
# Redrawn frames are "ESC[2K" + line; the observed line follows the two status lines of the same frame.
tr '\r' '\n' <tty.out | sed 's/\x1b\[[0-9]*[AJK]//g' >frames.txt
line="observed: pid:$LAB_PID CPU of its allowed cores [0-9.]+, run-queue wait [0-9.e+-]+s/s · generator CPU [0-9.]+ cores"
n=$(grep -Ec "^  $line\$" frames.txt) || true
assert_cmp "$n" ">=" 1 "an observed line while the run went on: $(grep observed frames.txt | head -3)"
# The lab at 100/s sleeps 1 ms per request: its CPU is far from its core's, and the value is a live one (a number).
cpu=$(grep -Eo "CPU of its allowed cores [0-9.]+" frames.txt | tail -1 | awk '{print $NF}')
assert_cmp "$cpu" "<" 0.9 "the lab's CPU at 100/s of 1 ms sleeps"
pass "live view: $n frame(s) with the observed line (lab CPU $cpu of its cores)"
