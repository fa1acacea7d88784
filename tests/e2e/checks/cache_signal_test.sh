#!/usr/bin/env bash
# The single-key warning believes a server that says what its cache did (Server-Timing `cache;desc=off|hit|miss`):
# one URL against the lab without --cache gives no warning (the lab says `cache;desc=off`: nothing was measured
# through a cache); against the lab with --cache it warns with the hit share the lab reported; against nginx, which
# says nothing, it warns as before. Low rates, nothing timed.
# e2e: parallel-safe
source "$OPENLOOP_E2E_LIB"
require_tools jq nginx

# one_url NAME URL: a 1-s run of one URL at 200/s; its JSON in $E2E_TMP/NAME.json
one_url() {
  local code=0
  "$OPENLOOP" run "$2" --rate 200/s --duration 1s --slo none --no-html --json "$E2E_TMP/$1.json" \
    >"$E2E_TMP/$1.txt" 2>&1 || code=$?
  accept_invalid_only_for "$code" "$E2E_TMP/$1.json" '^send lateness'
  assert_complete_results "$E2E_TMP/$1.json" 1
}
cache_warnings() { jq '[.warnings[] | select(test("measured a cache"))] | length' "$1"; }

start_lab --workers 4 --service 1ms
one_url plain "$LAB_URL/item/42"
r=$E2E_TMP/plain.json
assert_cmp "$(json "$r" .summary.server_timing.cache.off)" == "$(json "$r" .summary.counts.completed)" \
  "the lab without --cache said cache;desc=off on every response"
assert_cmp "$(cache_warnings "$r")" == 0 "no single-key warning where the server said it has no cache"
grep -q 'measured a cache' "$E2E_TMP/plain.txt" && fail "the summary warned: $(grep 'measured a cache' "$E2E_TMP/plain.txt")"
pass "lab without a cache: $(json "$r" .summary.server_timing.cache.off) responses said cache off, no warning"
stop_lab

start_lab --workers 4 --service 0 --cache 10 --hit 0 --miss 1ms
one_url cached "$LAB_URL/item/42"
r=$E2E_TMP/cached.json
assert_cmp "$(json "$r" .summary.server_timing.cache.miss)" ">=" 1 "the first request missed the lab's cache"
assert_cmp "$(json "$r" .summary.server_timing.cache.hit)" ">" 100 "the later ones hit it"
hits=$(json "$r" .summary.server_timing.cache.hit) looked_up=$(($(json "$r" .summary.server_timing.cache.hit) + $(json "$r" .summary.server_timing.cache.miss)))
jq -r '.warnings[]' "$r" | grep -qF "(the server's Server-Timing reported $hits of $looked_up responses as cache hits)" ||
  fail "no warning with the reported hits ($hits of $looked_up): $(jq -c .warnings "$r")"
pass "lab with a cache: warned with the hit share ($(jq -r '.warnings[] | select(test("cache hits"))' "$r" | grep -o '(the server.*)'))"
stop_lab

port=$(free_port)
start_nginx "$port"
wait_port "$port"
one_url nginx "http://127.0.0.1:$port/"
r=$E2E_TMP/nginx.json
jq -e '.summary.server_timing.cache == null' "$r" >/dev/null || fail "nginx said something of a cache: $(jq -c .summary.server_timing "$r")"
assert_cmp "$(cache_warnings "$r")" == 1 "nginx says nothing of a cache: the warning stands"
pass "nginx (no Server-Timing): the single-key warning as before"
