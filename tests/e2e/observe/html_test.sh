#!/usr/bin/env bash
# The HTML report of an observed run in headless Chromium: one chart per source (host, the lab's process, self)
# beside the four of every run, all drawn offline with no script error or console output.
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
chromium=/usr/bin/chromium
[[ -x $chromium ]] || { echo "SKIP: $chromium is not installed (scripts/install-deps)"; exit 77; }
require_tools jq timeout
start_lab --workers 4 --service 1ms
cd "$E2E_TMP"
code=0
timeout 30 "$OPENLOOP" run "$LAB_URL/" --rate 200/s --duration 3s -t 1 -q --max-lateness 100ms \
  --observe host --observe "pid:$LAB_PID" --json r.json --html r.html >out.txt 2>err.txt || code=$?
[[ $code == 0 ]] || fail "exit $code: $(cat err.txt)"
[[ $(grep -c 'id="chart-observed-' r.html) == 3 ]] || fail "a chart per source (host, pid, self)"
rm -rf "$E2E_TMP/profile"
timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$E2E_TMP/profile" \
  --enable-logging=stderr --v=0 --virtual-time-budget=5000 --dump-dom "file://$E2E_TMP/r.html" >r.dom 2>r.log ||
  fail "chromium exit $?: $(tail -3 r.log)"
root=$(grep -o '<html[^>]*>' r.dom | head -1)
[[ $root == *'data-charts-expected="7"'* ]] || fail "7 charts expected: $root"
[[ $root == *'data-charts-drawn="7"'* ]] || fail "not every chart drew: $root"
[[ $root != *data-errors* ]] || fail "script errors: $root"
! grep -q 'CONSOLE' r.log || fail "console output: $(grep CONSOLE r.log | head -5)"
pass "HTML report: 7 charts drawn (3 observed sources), no script error"
