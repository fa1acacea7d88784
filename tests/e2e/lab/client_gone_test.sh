#!/usr/bin/env bash
# A client that hangs up while its request is queued: the lab closes that connection at once (its descriptor is
# free again, whatever the queue holds) and the model still does the work (no --cancel), or drops it at dequeue
# (--cancel).
# e2e: light (the lab's counters for clients that hang up)
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
require_tools curl jq

# abandon_six: 6 requests to a lab with one 1-s worker, whose clients give up after 0.3 s; prints "connections
# queued" 0.5 s later.
abandon_six() {
  for i in $(seq 6); do curl -s -o /dev/null --max-time 0.3 "$LAB_URL/$i" & done
  wait # for the clients only: called in a subshell, which does not have the lab as a child
  sleep 0.5
  # The stats request itself holds one connection.
  lab_query '"\(.server.connections_open) \(.queue_depth)"'
}

start_lab --workers 1 --service 1s
read -r open queued <<<"$(abandon_six)"
[[ $open -eq 1 ]] || fail "$open connections still open after their 6 clients hung up (expected only the stats one)"
[[ $queued -ge 4 ]] || fail "the abandoned requests should still be queued: queue depth $queued"
pass "6 clients hung up: their connections closed at once, $queued requests still queued"
for _ in $(seq 100); do
  [[ $(lab_query .ok) -eq 6 ]] && break
  sleep 0.1
done
[[ $(lab_query .ok) -eq 6 ]] || fail "without --cancel the work is done anyway: ok $(lab_query .ok), expected 6"
pass "without --cancel the model served all 6 for nobody"
stop_lab

start_lab --workers 1 --service 1s --cancel
read -r open queued <<<"$(abandon_six)"
[[ $open -eq 1 ]] || fail "--cancel: $open connections still open after their clients hung up"
sleep 1.2
[[ $(lab_query .cancelled) -ge 4 && $(lab_query .ok) -le 2 ]] ||
  fail "--cancel should drop the abandoned requests at dequeue: $(lab_query '{ok, cancelled, queue_depth} | tojson')"
pass "--cancel: $(lab_query .cancelled) abandoned requests dropped at dequeue, $(lab_query .ok) served"
stop_lab
