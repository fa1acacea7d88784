# The HTML report in real headless Chromium: it loads offline with no console output and no script error, every
# chart draws (the page sets data-charts-drawn once each chart has), and a screenshot is kept in the build dir
# (test-artifacts/report/) for people to look at. The run hits a lab that stalls with few connections, so the gap
# before sending (a client-side queue) shows.
# e2e: parallel-safe (the page's charts, not the run's timing)
source "$OPENLOOP_E2E_LIB"
chromium=/usr/bin/chromium
[[ -x $chromium ]] || { echo "SKIP: $chromium is not installed (scripts/install-deps)"; exit 77; }
artifacts=$(cd "$(dirname "$OPENLOOP")/../.." && pwd)/test-artifacts/report
mkdir -p "$artifacts"
start_lab --workers 4 --service exp:1ms --stall-at 2s+400ms
cd "$E2E_TMP"
code=0
# Few connections, queued when busy: during the stall arrivals wait for a connection, so response time (from the
# intended time) pulls away from service time: time in openloop before the send, the gap the spectrum chart labels.
"$OPENLOOP" run "$LAB_URL/" --rate 200/s --duration 5s --warmup 1s --threads 1 --max-connections 4 \
  --on-saturation queue --json r.json --hlog r.hlog --html r.html -q >/dev/null || code=$?
# The stall is meant to show: requests queued through it are sent late (INVALID by the slot waits, or by send
# lateness on a host too loaded to keep the rest on time), nothing else.
accept_invalid_only_for "$code" r.json '^send lateness' 'waited for a free stream/connection'
"$OPENLOOP" report r.hlog --format html -o hlog.html || fail "report html from .hlog exit $?"

# browse PAGE ARGS...: headless Chromium, offline profile in the temp dir, console messages logged to stderr.
browse() {
  local page=$1; shift
  rm -rf "$E2E_TMP/profile"
  timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$E2E_TMP/profile" \
    --enable-logging=stderr --v=0 --virtual-time-budget=5000 "$@" "file://$E2E_TMP/$page"
}
check_page() {  # check_page PAGE CHARTS
  browse "$1" --dump-dom >"$1.dom" 2>"$1.log" || fail "chromium exit $? on $1: $(tail -3 "$1.log")"
  local root
  root=$(grep -o '<html[^>]*>' "$1.dom" | head -1)
  [[ $root == *"data-charts-expected=\"$2\""* ]] || fail "$1: expected $2 charts: $root"
  [[ $root == *"data-charts-drawn=\"$2\""* ]] || fail "$1: not every chart drew: $root"
  [[ $root != *data-errors* ]] || fail "$1: script errors: $root"
  ! grep -q 'CONSOLE' "$1.log" || fail "$1: console output (errors, blocked requests): $(grep CONSOLE "$1.log" | head -5)"
  assert_cmp "$(grep -c '<canvas' "$1.dom")" ">=" "$2" "$1: a canvas per chart"
}
check_page r.html 4
check_page hlog.html 2
grep -q 'coordinated omission' r.html || fail "the spectrum caption names coordinated omission"
browse r.html --window-size=1280,3800 --hide-scrollbars --screenshot="$artifacts/report.png" >/dev/null 2>&1 ||
  fail "screenshot exit $?"
[[ -s $artifacts/report.png ]] || fail "no screenshot"
cp r.html "$artifacts/report.html"
pass "HTML report: 4 charts drawn offline, no console output; screenshot at $artifacts/report.png"
