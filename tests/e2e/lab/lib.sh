# Shared helpers for the lab's end-to-end tests: start `openloop lab` on a free loopback port, query it, clean up.
# Sourced by tests/e2e/lab/*_test.sh, which CTest runs as `bash SCRIPT path/to/openloop`. Every wait is bounded.
# shellcheck shell=bash
set -euo pipefail

OPENLOOP=${1:?usage: $0 path/to/openloop}
for tool in curl jq wrk timeout; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed (scripts/install-deps)"; exit 77; }
done
TMP=$(mktemp -d)
LAB_PID=""
PORT=""
BASE=""

cleanup() {
  if [[ -n $LAB_PID ]] && kill -0 "$LAB_PID" 2>/dev/null; then
    kill -KILL "$LAB_PID" 2>/dev/null || true
  fi
  rm -rf "$TMP"
}
trap cleanup EXIT

fail() {
  echo "FAIL: $*" >&2
  if [[ -f $TMP/lab.err ]]; then sed 's/^/  lab stderr: /' "$TMP/lab.err" >&2; fi
  exit 1
}
pass() { echo "ok: $*"; }

# start_lab ARGS...: starts the lab on 127.0.0.1:0 with ARGS and waits (≤ 5 s) for its "listening" line.
start_lab() {
  # Empty the files first: the child truncates them only after the fork, and until then a restarted lab's
  # "listening" line would still be the previous lab's.
  : >"$TMP/lab.out"
  : >"$TMP/lab.err"
  "$OPENLOOP" lab --listen 127.0.0.1:0 "$@" >"$TMP/lab.out" 2>"$TMP/lab.err" &
  LAB_PID=$!
  LAB_STARTED=$(date +%s%N)
  for _ in $(seq 100); do
    if grep -q '^lab listening on ' "$TMP/lab.out" 2>/dev/null; then
      PORT=$(sed -n 's/^lab listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$TMP/lab.out")
      BASE="http://127.0.0.1:$PORT"
      return 0
    fi
    kill -0 "$LAB_PID" 2>/dev/null || fail "lab exited before listening"
    sleep 0.05
  done
  fail "lab did not print its listening line within 5 s"
}

# stop_lab: SIGTERM, then expect a clean exit 0 within 5 s.
stop_lab() {
  kill -TERM "$LAB_PID"
  for _ in $(seq 100); do
    if ! kill -0 "$LAB_PID" 2>/dev/null; then
      local rc=0
      wait "$LAB_PID" || rc=$?
      LAB_PID=""
      [[ $rc -eq 0 ]] || fail "lab exited with $rc after SIGTERM (expected 0)"
      return 0
    fi
    sleep 0.05
  done
  fail "lab did not exit within 5 s of SIGTERM"
}

# Seconds since start_lab, as a decimal.
since_start() { awk -v now="$(date +%s%N)" -v t0="$LAB_STARTED" 'BEGIN { printf "%.3f", (now - t0) / 1e9 }'; }

# stat JQ_FILTER: one value from GET /_lab/stats.
stat() { curl -sS --max-time 5 "$BASE/_lab/stats" | jq -r "$1"; }

# status URL [curl args...]: the HTTP status code of one request (000 if none within 10 s).
status() {
  local url=$1
  shift
  curl -s -o /dev/null -w '%{http_code}\n' --max-time 10 "$@" "$url" || true
}

# raw TEXT: sends TEXT on a fresh connection and prints what comes back until the server closes (≤ 5 s).
raw() {
  local fd
  exec {fd}<>"/dev/tcp/127.0.0.1/$PORT"
  printf '%b' "$1" >&"$fd"
  timeout 5 cat <&"$fd" || true
  exec {fd}>&-
}

# wrk_rate ARGS...: runs wrk with ARGS against $BASE/ and prints its Requests/sec.
wrk_rate() {
  timeout 30 wrk "$@" "$BASE/" >"$TMP/wrk.out" 2>&1 || fail "wrk failed: $(cat "$TMP/wrk.out")"
  awk '/^Requests\/sec:/ {print $2}' "$TMP/wrk.out"
}

# check CONDITION DESCRIPTION: evaluates a bc/arith condition string with awk and fails with DESCRIPTION.
check() {
  local cond=$1
  shift
  awk "BEGIN { exit !($cond) }" || fail "$* (condition: $cond)"
  pass "$*"
}
