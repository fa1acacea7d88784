# Targets files in Vegeta's format: every target is a named request in the breakdown; without weights they are sent
# in turn (exact counts), with weight=N by weight; headers, @body files and -H reach the server; standard input
# works when piped and is refused when it is a terminal; bad lines are refused naming file:line.
# e2e: parallel-safe (what reached the server, counted by the schedule)
source "$OPENLOOP_E2E_LIB"
source "$(dirname "${BASH_SOURCE[0]}")/inputs_lib.sh"
cd "$E2E_TMP"
start_capture

printf '{"name": "dragon"}' >thing.json
cat >targets.txt <<TARGETS
# Vegeta's example, against the capture server
GET $CAPTURE_URL/path/to/dragon?item=ball
X-Account-ID: 8675309

DELETE $CAPTURE_URL/path/to/remove
Confirmation-Token: 90215

POST $CAPTURE_URL/things
Content-Type: application/json
@thing.json
TARGETS

run_applied rr.json --targets targets.txt --rate 30/s --duration 1s --threads 1 -H 'Authorization: Token T'
for name in 'GET /path/to/dragon?item=ball' 'DELETE /path/to/remove' 'POST /things'; do
  assert_cmp "$(json rr.json ".summary.by_request[\"$name\"].counts.ok")" == 10 "round-robin: 10 of 30 were $name"
done
assert_cmp "$(jq -s 'map(select(.method == "GET" and .headers["x-account-id"] == "8675309")) | length' "$CAPTURE_LOG")" \
  == 10 "GET with its header"
assert_cmp "$(jq -s 'map(select(.method == "POST" and .path == "/things" and .body == "{\"name\": \"dragon\"}")) | length' \
  "$CAPTURE_LOG")" == 10 "POST with its @body"
assert_cmp "$(jq -s 'map(select(.headers.authorization == "Token T")) | length' "$CAPTURE_LOG")" == 30 "-H on every target"
pass "targets sent in turn, each a named request"

cat >weighted.txt <<TARGETS
GET $CAPTURE_URL/hot weight=4
GET $CAPTURE_URL/cold
TARGETS
: >"$CAPTURE_LOG"
run_applied w.json --rate 200/s --duration 1s --threads 1 --targets - <weighted.txt
hot=$(json w.json '.summary.by_request["GET /hot"].counts.intended')
cold=$(json w.json '.summary.by_request["GET /cold"].counts.intended')
assert_cmp $((hot + cold)) == 200 "every request is one of the targets"
# 4:1 by weight: 160 expected, binomial sd 5.7; the seed is fixed, the bounds are 5 sd wide.
assert_cmp "$hot" ">=" 131 "hot has about 4/5 of the requests"
assert_cmp "$hot" "<=" 189 "hot has about 4/5 of the requests"
pass "weights from standard input"

printf 'GET %s/a\nX-Ok: 1\noops\n' "$CAPTURE_URL" >bad.txt
expect_usage_of run 'bad.txt:3: "oops" is not a header line (Name: value), a body line (@file) or a target line' \
  --targets bad.txt --rate 1/s -d 1s
printf 'GET %s/a\n\nGET http://127.0.0.2:9/b\n' "$CAPTURE_URL" >two.txt
expect_usage_of run 'two.txt:3: http://127.0.0.2:9/b goes to http://127.0.0.2:9' --targets two.txt --rate 1/s -d 1s
expect_usage_of run '--targets: the requests come from two.txt; drop' "$CAPTURE_URL/" --targets two.txt --rate 1/s
: >"$CAPTURE_LOG"
run_applied two.json --targets two.txt --target "$CAPTURE_URL" --rate 10/s --duration 1s --threads 1
[[ $(jq -r .path "$CAPTURE_LOG" | sort -u | tr '\n' ' ') == '/a /b ' ]] || fail "--target keeps each target's path"
pass "bad targets refused naming file:line; --target sends them all to one host"

if command -v script >/dev/null; then
  # A terminal on standard input: refused at once, not waited on.
  code=0
  timeout 10 script -qec "$OPENLOOP run --targets - --rate 1/s -d 1s" /dev/null >tty.txt 2>&1 || code=$?
  [[ $code == 2 ]] || fail "--targets - on a terminal: exit $code: $(cat tty.txt)"
  grep -q 'standard input is a terminal' tty.txt || fail "says why: $(cat tty.txt)"
  pass "a terminal on standard input is refused"
else
  echo "note: script(1) missing: the terminal case is covered by the unit tests only"
fi
