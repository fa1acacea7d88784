#!/usr/bin/env bash
# `openloop lab` lifecycle: bad flags exit 2 naming the flag; port 0 is reported; --duration and SIGTERM exit 0.
# e2e: parallel-safe (bad flags refused; lifecycle)
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
require_tools curl jq timeout

expect_usage_error() {  # FLAG VALUE WORD: exit 2 and a message naming FLAG and containing WORD
  local out rc=0 listen=(--listen 127.0.0.1:0) duration=(--duration 1s)
  [[ $1 == --listen ]] && listen=()
  [[ $1 == --duration ]] && duration=()
  out=$(timeout 5 "$OPENLOOP" lab "${listen[@]}" "${duration[@]}" "$1" "$2" 2>&1) || rc=$?
  [[ $rc -eq 2 ]] || fail "$1 $2: exit $rc, expected 2 ($out)"
  [[ $out == *"$1"* && $out == *"$3"* ]] || fail "$1 $2: message does not name the flag or what is accepted: $out"
  pass "$1 $2 refused: $out"
}
expect_usage_error --service fast "exp:"
expect_usage_error --workers 0 "integer"
expect_usage_error --queue random "fifo or lifo"
expect_usage_error --stall 2s/1s "LEN/PERIOD"
expect_usage_error --stall-at 10s "AT+LEN"
expect_usage_error --error-rate 1.5 "0 to 1"
expect_usage_error --listen nowhere "HOST:PORT"
expect_usage_error --duration soon "250ms"

# --duration: stops by itself, exit 0.
t0=$(date +%s%N)
out=$(timeout 10 "$OPENLOOP" lab --listen 127.0.0.1:0 --duration 500ms) || fail "--duration run exited $?"
elapsed_ms=$((($(date +%s%N) - t0) / 1000000))
[[ $out =~ ^lab\ listening\ on\ 127\.0\.0\.1:[0-9]+$ ]] || fail "unexpected start line: $out"
[[ $out != *":0" ]] || fail "port 0 was printed instead of the chosen port"
check "$elapsed_ms >= 450 && $elapsed_ms < 5000" "--duration 500ms stopped after ${elapsed_ms} ms with exit 0"

# SIGTERM: serves, then exits 0.
start_lab
[[ $(http_status "$LAB_URL/") == 200 ]] || fail "GET / did not answer 200"
stop_lab
pass "SIGTERM exits 0"
