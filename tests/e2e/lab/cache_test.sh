#!/usr/bin/env bash
# Cache: an LRU keyed by path and query; hits, misses and the ratio appear in /_lab/stats; flushing empties it.
# e2e: parallel-safe (cache counters)
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
require_tools curl jq wrk timeout

start_lab --service 0 --cache 10 --hit 0 --miss 1ms
for round in 1 2 3 4; do
  for key in a b c d e?x=1; do [[ $(http_status "$LAB_URL/$key") == 200 ]] || fail "GET /$key failed"; done
done
[[ $(lab_query .cache.misses) -eq 5 && $(lab_query .cache.hits) -eq 15 ]] || fail "expected 5 misses, 15 hits: $(lab_query .cache)"
check "$(lab_query .cache.ratio) == 0.75" "5 keys x 4 rounds: hit ratio $(lab_query .cache.ratio)"
[[ $(http_status "$LAB_URL/e?x=2") == 200 ]] || fail "GET failed"
[[ $(lab_query .cache.misses) -eq 6 ]] || fail "a different query must be a different key"
pass "the query is part of the key"
curl -sS --max-time 5 -o /dev/null -X POST -d '{"cache-flush": true}' "$LAB_URL/_lab/config"
[[ $(lab_query .cache.size) -eq 0 ]] || fail "cache-flush did not empty the cache"
rate=$(wrk_rate -t1 -c4 -d1s)
check "$(lab_query .cache.ratio) > 0.9" "one hot key under wrk (${rate}/s): hit ratio $(lab_query .cache.ratio)"
stop_lab
