#!/usr/bin/env bash
# Queue discipline: with one 600 ms worker busy, requests queued in order 1, 2, 3 complete 1, 2, 3 under FIFO and
# 3, 2, 1 under LIFO (observed as the order in which the clients finish).
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
require_tools curl jq

completion_order() {  # starts 4 requests 150 ms apart; prints the order in which 1..3 complete
  : >"$E2E_TMP/order"
  curl -s -o /dev/null --max-time 10 "$LAB_URL/0" &
  sleep 0.15
  for i in 1 2 3; do
    (curl -s -o /dev/null --max-time 10 "$LAB_URL/$i" && echo "$i" >>"$E2E_TMP/order") &
    sleep 0.15
  done
  wait
  tr -d '\n' <"$E2E_TMP/order"
}

start_lab --workers 1 --service 600ms --queue fifo
fifo=$(completion_order)
stop_lab
[[ $fifo == 123 ]] || fail "FIFO completed in order $fifo, expected 123"
pass "FIFO completes in arrival order ($fifo)"

start_lab --workers 1 --service 600ms --queue lifo
lifo=$(completion_order)
stop_lab
[[ $lifo == 321 ]] || fail "LIFO completed in order $lifo, expected 321"
pass "LIFO completes newest first ($lifo)"
