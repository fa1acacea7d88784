#!/usr/bin/env bash
# e2e: parallel-safe (files only: no server, nothing sent)
# `openloop audit --html`: one self-contained page with the findings and the feedback chart. In headless Chromium
# (when installed) it loads offline, draws the chart (data-audit-chart-drawn) and logs no error; a screenshot is
# kept in the build dir (test-artifacts/audit/) for people to look at.
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
cd "$E2E_TMP"
# A JMeter CSV of 4 closed-loop threads, 10 ms per request, stalled from 4 s to 5 s; a label that must be escaped.
awk 'BEGIN {
  print "timeStamp,elapsed,label,responseCode,threadName,success"
  for (k = 0; k < 4; k++) {
    t = int(k * 10 / 4)
    while (t < 10000) { e = t + 10; if (t < 5000 && e > 4000 && e < 5000) e = 5000; printf "%.0f,%d,<b>home</b>,200,Users 1-%d,true\n", 1700000000000 + t, e - t, k + 1; t = e }
  }
}' >run.jtl
"$OPENLOOP" audit run.jtl --html page.html --json run.json -q || fail "audit --html: exit $?"
page=page.html
[[ -s $page ]] || fail "no page written"
for want in "What the tool did" "Feedback: offered rate against latency" "Coordinated omission" "corrected (estimate)" \
  "openloop run TARGET --rate 400/s" 'id="feedback-chart"' "Content-Security-Policy"; do
  grep -qF -- "$want" "$page" || fail "page lacks '$want'"
done
! grep -qF '<b>home</b>' "$page" || fail "a label from the file is not escaped"
! grep -qE '<(script|link)[^>]+src=' "$page" || fail "the page loads something from outside"
pass "the page holds every finding and the chart's place, escaped, self-contained"

chromium=/usr/bin/chromium
[[ -x $chromium ]] || { echo "SKIP: $chromium is not installed: the chart is not drawn here"; exit 77; }
artifacts=$(cd "$(dirname "$OPENLOOP")/../.." && pwd)/test-artifacts/audit
mkdir -p "$artifacts"
cp "$page" audit.html
browse() {
  rm -rf "$E2E_TMP/profile"
  timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$E2E_TMP/profile" \
    --enable-logging=stderr --v=0 --virtual-time-budget=5000 "$@" "file://$E2E_TMP/audit.html"
}
browse --dump-dom >audit.dom 2>audit.log || fail "chromium exit $?: $(tail -3 audit.log)"
root=$(grep -o '<html[^>]*>' audit.dom | head -1)
[[ $root == *'data-audit-chart-drawn="1"'* ]] || fail "the chart did not draw: $root"
[[ $root != *data-errors* ]] || fail "script errors: $root"
! grep -q 'CONSOLE' audit.log || fail "console output: $(grep CONSOLE audit.log | head -5)"
assert_cmp "$(grep -c '<canvas' audit.dom)" ">=" 1 "a canvas for the chart"
browse --window-size=1280,2400 --hide-scrollbars --screenshot="$artifacts/audit.png" >/dev/null 2>&1 || fail "screenshot exit $?"
cp audit.html "$artifacts/audit.html"
pass "the audit page draws its chart offline in Chromium, no console output; screenshot at $artifacts/audit.png"
