#!/usr/bin/env bash
# The HTML report of an observed run in headless Chromium: one chart per source (host, the lab's process, self)
# beside the four of every run, all drawn offline with no script error or console output; the same run's .hlog has
# its observed companion (r.observed.csv) on its time axis.
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
chromium=/usr/bin/chromium
[[ -x $chromium ]] || { echo "SKIP: $chromium is not installed (scripts/install-deps)"; exit 77; }
require_tools jq timeout
start_lab --workers 4 --service 1ms
cd "$E2E_TMP"
code=0
timeout 30 "$OPENLOOP" run "$LAB_URL/" --rate 200/s --duration 2s -t 1 -q --max-lateness 100ms \
  --observe host --observe "pid:$LAB_PID" --json r.json --html r.html --hlog r.hlog >out.txt 2>err.txt || code=$?
[[ $code == 0 ]] || fail "exit $code: $(cat err.txt)"
# Beside the .hlog: r.observed.csv, its StartTime the .hlog's and one row per .hlog interval with the same start and
# length as written there, holding the results file's values.
[[ -s r.observed.csv ]] || fail "r.observed.csv beside r.hlog: $(ls)"
hlog_start=$(sed -n 's/^#\[StartTime: \([0-9.]*\) .*/\1/p' r.hlog)
csv_start=$(sed -n 's/^#\[StartTime: \([0-9.]*\) .*/\1/p' r.observed.csv)
[[ -n $hlog_start && $hlog_start == "$csv_start" ]] || fail "the same StartTime: $hlog_start vs $csv_start"
grep '^Tag=response_time,' r.hlog | cut -d, -f2,3 >hlog.times
grep -v '^#' r.observed.csv | tail -n +2 | cut -d, -f1,2 >csv.times
[[ $(wc -l <hlog.times) == $(jq '.intervals | length' r.json) ]] || fail "an .hlog interval per results interval"
diff hlog.times csv.times >/dev/null || fail "rows on the .hlog's intervals: $(paste hlog.times csv.times | head)"
col=$(grep -v '^#' r.observed.csv | head -1 | tr ',' '\n' | grep -nx 'host/cpu_busy' | cut -d: -f1)
[[ -n $col ]] || fail "a host/cpu_busy column: $(grep -v '^#' r.observed.csv | head -1)"
csv_value=$(grep -v '^#' r.observed.csv | sed -n 2p | cut -d, -f"$col")
json_value=$(json r.json '.intervals[0].observed.host.cpu_busy')
assert_near "$csv_value" "$json_value" 1e-9 "interval 0's host CPU: $csv_value in the CSV, $json_value in the results"
pass "r.observed.csv lines up with r.hlog ($(wc -l <csv.times) intervals from StartTime $csv_start)"
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
