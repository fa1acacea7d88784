#!/usr/bin/env bash
# Deadlines: requests whose budget (deadline header) passes while queued get 504 at dequeue, with no work done.
# e2e: light (504 at dequeue for budgets that passed in the queue)
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
require_tools curl jq

start_lab --workers 1 --service 300ms --deadline-header X-Deadline
# In a subshell, so that `wait` waits for the clients and not for the lab.
(
  for i in $(seq 6); do http_status "$LAB_URL/$i" -H "X-Deadline: 450ms" & done
  wait
) >"$E2E_TMP/codes"
n504=$(grep -o 504 "$E2E_TMP/codes" | wc -l)
n200=$(grep -o 200 "$E2E_TMP/codes" | wc -l)
[[ $n200 -ge 1 && $n504 -ge 3 && $((n200 + n504)) -eq 6 ]] || fail "expected 200s then 504s, got $(cat "$E2E_TMP/codes")"
[[ $(lab_query .expired) -eq $n504 ]] || fail "stats.expired $(lab_query .expired) != 504s seen $n504"
[[ $(lab_query .completed) -eq $n200 ]] || fail "expired requests were served: completed $(lab_query .completed) != $n200"
pass "deadline 450 ms with 300 ms service: $n200 x 200, $n504 x 504 (no work done for them)"
[[ $(http_status "$LAB_URL/" -H "X-Deadline: soon") == 400 ]] || fail "an unreadable deadline header should answer 400"
[[ $(lab_query .server.bad_deadline) -eq 1 ]] || fail "bad deadline header not counted"
pass "unreadable deadline header: 400, counted"
[[ $(http_status "$LAB_URL/") == 200 ]] || fail "requests without the header should be served"
stop_lab
