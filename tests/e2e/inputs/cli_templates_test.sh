# Templates on the command line: a templated URL draws a new key per request (the lab's cache sees them, and there
# is no single-key warning), -H and --body templates are rendered per request exactly as written (a capture server
# sees every value), and bad templates are refused before anything is sent, naming the flag.
# e2e: parallel-safe (what reached the server; bad input)
source "$OPENLOOP_E2E_LIB"
source "$(dirname "${BASH_SOURCE[0]}")/inputs_lib.sh"
cd "$E2E_TMP"

start_lab --workers 8 --service 1ms --cache 100000
run_applied keys.json "$LAB_URL/item/{{uniform(1, 1000000000)}}" --rate 200/s --duration 1s --threads 1
intended=$(json keys.json .summary.counts.intended)
assert_cmp "$intended" == 200 "200/s for 1 s"
misses=$(lab_query .cache.misses)
# Distinct keys are cache misses; a billion keys drawn 200 times repeat with probability ~2e-5.
assert_cmp "$misses" ">=" 199 "the lab saw (nearly) every request with its own key"
[[ $(jq '.warnings | length' keys.json) == 0 ]] || fail "no single-key warning: $(json keys.json '.warnings')"
grep -q 'GET /item/{{uniform(1, 1000000000)}}' keys.json || fail "the request is named by its template"
pass "a templated URL sends a new key per request"

start_capture
run_applied hb.json "$CAPTURE_URL/cart/{{sequence(1)}}?q=x" -X POST --rate 20/s --duration 1s --threads 1 \
  -H 'X-User: u{{sequence(100)}}' -H 'Content-Type: application/json' --body '{"sku": {{zipf(50, 1.1)}}}'
assert_cmp "$(json hb.json .summary.counts.ok)" == 20 "20 requests ok"
assert_cmp "$(wc -l <"$CAPTURE_LOG")" == 20 "the server received 20 requests"
# One worker draws its sequences in order: request k has path /cart/k and X-User u(99+k).
paths=$(jq -r '.path' "$CAPTURE_LOG" | sort -t/ -k3 -n | tr '\n' ' ')
[[ $paths == "$(for k in $(seq 20); do printf '/cart/%d?q=x ' "$k"; done)" ]] || fail "paths: $paths"
users=$(jq -r '.headers["x-user"]' "$CAPTURE_LOG" | sort -u | wc -l)
assert_cmp "$users" == 20 "every request had its own X-User"
jq -e -s 'all(.[]; .method == "POST" and .headers["content-type"] == "application/json" and
  (.body | test("^\\{\"sku\": ([1-9]|[1-4][0-9]|50)\\}$")) and
  (.path | ltrimstr("/cart/") | rtrimstr("?q=x") | tonumber) + 99 == (.headers["x-user"] | ltrimstr("u") | tonumber))' \
  "$CAPTURE_LOG" >/dev/null || fail "bodies and headers as templated: $(head -3 "$CAPTURE_LOG")"
pass "-H and --body templates are rendered per request"

expect_usage_of run "URL 'http://127.0.0.{{uniform(1, 9)}}:8080/': the scheme, host and port cannot be templated" \
  'http://127.0.0.{{uniform(1, 9)}}:8080/' --rate 10/s -d 1s
expect_usage_of run 'URL: unknown variable "sku" in {{sku}}' "$CAPTURE_URL/item/{{sku}}" --rate 10/s -d 1s
expect_usage_of run '-H X-Key: "k{{uniform(1, 2)": a {{ is not closed' "$CAPTURE_URL/" -H 'X-Key: k{{uniform(1, 2)' \
  --rate 10/s -d 1s
expect_usage_of run '--body: ' "$CAPTURE_URL/" --body '{{zipf(0, 1)}}' --rate 10/s -d 1s
assert_cmp "$(wc -l <"$CAPTURE_LOG")" == 20 "nothing was sent by the refused runs"
pass "bad templates on the command line are refused naming the flag"
