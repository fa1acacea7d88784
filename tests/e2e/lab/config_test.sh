#!/usr/bin/env bash
# POST /_lab/config changes the model while running; a bad change answers 400 naming the field and changes nothing.
# e2e: parallel-safe (config changes; only lower bounds on time)
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
require_tools curl jq

post() { curl -sS --max-time 5 -o "$E2E_TMP/post.json" -w '%{http_code}' -X POST -d "$1" "$LAB_URL/_lab/config"; }

start_lab --workers 1 --service 1ms
# Before the change: the lab's own config says 1 ms and a request is answered. (Its wall time is only printed: a
# busy machine can make any request slow, while none can make the 400 ms one below faster.)
[[ $(lab_query .config.service) == 1ms ]] || fail "the lab starts with a 1 ms service: $(lab_query .config)"
[[ $(http_status "$LAB_URL/") == 200 ]] || fail "the lab answers before the change"
t=$(curl -s -o /dev/null --max-time 10 -w '%{time_total}' "$LAB_URL/")
pass "1 ms service answers (${t} s)"

[[ $(post '{"service":"400ms"}') == 200 ]] || fail "config change refused: $(cat "$E2E_TMP/post.json")"
[[ $(jq -r .service "$E2E_TMP/post.json") == 400ms ]] || fail "config answer does not show the change"
t=$(curl -s -o /dev/null --max-time 10 -w '%{time_total}' "$LAB_URL/")
check "$t >= 0.35" "after POST {\"service\":\"400ms\"} a request took ${t} s"

[[ $(post '{"service":"0","dependency":"300ms","dependency-pool":1}') == 200 ]] || fail "dependency change refused"
t0=$(date +%s%N)
(
  for i in 1 2; do http_status "$LAB_URL/$i" >/dev/null & done
  wait  # for the clients only (a subshell does not have the lab as a child)
)
elapsed_ms=$((($(date +%s%N) - t0) / 1000000))
check "$elapsed_ms >= 550" "two requests through a 1-connection 300 ms dependency took ${elapsed_ms} ms (pool queueing)"

code=$(post '{"workers":8,"service":"bogus"}')
[[ $code == 400 ]] || fail "bad config answered $code"
grep -q 'service' "$E2E_TMP/post.json" || fail "error does not name the field: $(cat "$E2E_TMP/post.json")"
[[ $(lab_query .config.workers) -eq 1 ]] || fail "a refused change must change nothing"
pass "bad config: 400, names the field ($(jq -r .error "$E2E_TMP/post.json"))"
[[ $(post '{"wrokers":2}') == 400 ]] && grep -q 'workers' "$E2E_TMP/post.json" || fail "unknown field not refused helpfully"
[[ $(post 'not json') == 400 ]] || fail "non-JSON body not refused"
[[ $(http_status "$LAB_URL/_lab/nothing") == 404 ]] || fail "unknown control path should be 404"
pass "unknown field, non-JSON body and unknown path refused"
[[ $(post '{"restart": true}') == 200 ]] || fail "restart refused: $(cat "$E2E_TMP/post.json")"
[[ $(post '{"restart": "soon"}') == 400 ]] && grep -q 'true or false' "$E2E_TMP/post.json" ||
  fail "a restart that is not a boolean must be refused naming what is accepted: $(cat "$E2E_TMP/post.json")"
pass "restart accepted; a non-boolean restart refused"
stop_lab
