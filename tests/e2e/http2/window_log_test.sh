#!/usr/bin/env bash
# --h2-window: bad values exit 2 naming the flag and the range; a window smaller than each body still gets every
# body whole (the client reopens it as it consumes), and the plan records it. Over HTTP/2 the per-request log names
# the protocol, the connection and the stream; the HTML report names the protocol used.
# e2e: parallel-safe (bodies whole through small windows; bad values refused)
source "$OPENLOOP_E2E_LIB"
require_tools jq

expect_usage "--h2-window" http://127.0.0.1:9/ --http2 --h2-window 0 --rate 1/s --duration 1s
expect_usage "1 to 2147483647 bytes" http://127.0.0.1:9/ --http2 --h2-window 2147483648 --rate 1/s --duration 1s
expect_usage "1 to 2147483647 bytes" http://127.0.0.1:9/ --http2 --h2-window lots --rate 1/s --duration 1s
if grep -qE '\b(UINT|INT|TEXT)\b' <("$OPENLOOP" run --help | grep -e '--h2-window'); then
  fail "--h2-window's help shows a CLI11 type name: $("$OPENLOOP" run --help | grep -e '--h2-window')"
fi
pass "--h2-window 0, 2^31 and a word exit 2 naming the range"

# 200 000-byte bodies through 65 535-byte windows: every response whole.
start_lab --http2 --service 1ms --workers 50 --body-size 200000
r=$E2E_TMP/window.json
code=0
"$OPENLOOP" run "$LAB_URL/" --http2 --h2-window 65535 --rate 100/s --duration 2s --threads 1 --json "$r" \
  --html "$E2E_TMP/report.html" --log-requests "$E2E_TMP/requests.csv" --log-format csv >"$E2E_TMP/out.txt" 2>&1 ||
  code=$?
accept_invalid_only_for "$code" "$r" '^send lateness'
assert_conserved "$r"
intended=$(json "$r" .summary.counts.intended)
assert_cmp "$(json "$r" .summary.counts.ok)" == "$intended" "every request ok through 64 KiB windows"
assert_cmp "$(json "$r" .summary.counts.bytes_in)" ">" $((intended * 200000)) "every body read whole"
assert_cmp "$(json "$r" .plan.h2_window)" == 65535 "the plan records --h2-window"
pass "--h2-window 65535: $intended answers of 200 000 bytes each, whole"

# The log: protocol h2, a connection "WORKER.ID" and an odd stream id on every line.
log=$E2E_TMP/requests.csv
head -n1 "$log" | grep -q ',protocol,connection,stream$' || fail "CSV header lacks protocol,connection,stream: $(head -n1 "$log")"
lines=$(($(wc -l <"$log") - 1))
assert_cmp "$lines" == "$intended" "one line per request"
bad=$(awk -F, 'NR > 1 && !($(NF-2) == "h2" && $(NF-1) ~ /^0\.[0-9]+$/ && $NF % 2 == 1) {n++} END {print n + 0}' "$log")
assert_cmp "$bad" == 0 "every line names h2, its connection and an odd stream id"
streams=$(awk -F, 'NR > 1 {print $(NF-1) "/" $NF}' "$log" | sort -u | wc -l)
assert_cmp "$streams" == "$intended" "each request on a stream of its own"
grep -q '<th>protocol used</th><td>h2 (connections: h1 0, h2 ' "$E2E_TMP/report.html" ||
  fail "the HTML report does not name the protocol used"
pass "the log names h2, the connection and the stream of each request; the HTML report names h2"
stop_lab
