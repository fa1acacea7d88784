#!/usr/bin/env bash
# Shedding: with the queue at --shed-at, arrivals get 429 at once (and are counted); --queue-limit answers 503.
# e2e: light (429 and 503 counts at a full queue)
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
require_tools curl jq

burst() {  # N parallel requests; prints their status codes, one per line
  for _ in $(seq "$1"); do http_status "$LAB_URL/" & done | sort
  wait
}

start_lab --workers 1 --service 500ms --shed-at 2
codes=$(burst 10)
n429=$(grep -c '^429$' <<<"$codes" || true)
n200=$(grep -c '^200$' <<<"$codes" || true)
[[ $n429 -ge 5 && $n200 -ge 1 && $((n429 + n200)) -eq 10 ]] || fail "expected mostly 429 and some 200, got: $(tr '\n' ' ' <<<"$codes")"
[[ $(lab_query .shed) -eq $n429 ]] || fail "stats.shed $(lab_query .shed) != 429s seen $n429"
pass "shed-at 2: $n429 x 429, $n200 x 200, counted in stats"
stop_lab

start_lab --workers 1 --service 500ms --queue-limit 1
codes=$(burst 6)
n503=$(grep -c '^503$' <<<"$codes" || true)
[[ $n503 -ge 2 ]] || fail "expected 503s with --queue-limit 1, got: $(tr '\n' ' ' <<<"$codes")"
[[ $(lab_query .rejected) -eq $n503 ]] || fail "stats.rejected $(lab_query .rejected) != 503s seen $n503"
pass "queue-limit 1: $n503 x 503, counted in stats"
stop_lab
