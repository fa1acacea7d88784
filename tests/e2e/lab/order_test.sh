#!/usr/bin/env bash
# Queue discipline: with one worker busy on request 0, requests queued in order 1, 2, 3 complete 1, 2, 3 under FIFO
# and 3, 2, 1 under LIFO (observed as the order in which the clients finish).
# Robust by construction on a loaded machine: the lab starts frozen (a stall from t=0), each request is sent only
# once the lab holds the one before (`held` in /_lab/stats), and the stall is ended only once all four are held. At
# its end they are admitted in arrival order: 0 takes the worker, 1, 2, 3 queue. No timing decides the order
# except the 400 ms between completions.
# e2e: parallel-safe (completion order forced with a frozen lab)
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
require_tools curl jq

# wait_held N: waits (≤ 10 s) until the frozen lab holds N requests.
wait_held() {
  for _ in $(seq 200); do
    [[ $(lab_query .held) == "$1" ]] && return 0
    sleep 0.05
  done
  fail "the lab holds $(lab_query .held) requests, expected $1"
}

completion_order() {  # sends requests 0..3 in that order into the frozen lab; prints the order in which 1..3 complete
  : >"$E2E_TMP/order"
  [[ $(lab_query .frozen) == true ]] || fail "the lab should start frozen"
  curl -s -o /dev/null --max-time 20 "$LAB_URL/0" &
  wait_held 1
  for i in 1 2 3; do
    (curl -s -o /dev/null --max-time 20 "$LAB_URL/$i" && echo "$i" >>"$E2E_TMP/order") &
    wait_held $((i + 1))
  done
  curl -sS --max-time 5 -X POST -d '{"stall-at": []}' "$LAB_URL/_lab/config" >/dev/null  # thaw
  wait
  tr -d '\n' <"$E2E_TMP/order"
}

start_lab --workers 1 --service 400ms --queue fifo --stall-at 0s+60s
fifo=$(completion_order)
stop_lab
[[ $fifo == 123 ]] || fail "FIFO completed in order $fifo, expected 123"
pass "FIFO completes in arrival order ($fifo)"

start_lab --workers 1 --service 400ms --queue lifo --stall-at 0s+60s
lifo=$(completion_order)
stop_lab
[[ $lifo == 321 ]] || fail "LIFO completed in order $lifo, expected 321"
pass "LIFO completes newest first ($lifo)"
