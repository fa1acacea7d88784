# e2e: parallel-safe
# `trace inspect --html`: the inspection as one standalone page, well-formed HTML (xmllint), whose numbers are those
# of `trace inspect --json` for the same trace: the summary, every endpoint's records, the sizes, the statuses, the
# keys' Zipf fit, and the whole rate series behind the chart; no text of the trace unescaped; bad output refused.
source "$OPENLOOP_E2E_LIB"
require_tools jq awk xmllint
cd "$E2E_TMP"
# 600 records over about 6 s: three endpoints with ids, a body on every 5th, statuses logged, a path with a tag to
# escape.
awk 'BEGIN { srand(3); for (i = 0; i < 600; i++) {
  t = 100 + i * 0.01 + rand() * 0.002; k = int(1 / (rand() + 0.01))
  if (i % 5 == 0) printf "{\"t\": %.6f, \"method\": \"POST\", \"url\": \"/cart/%d\", \"body\": \"%0" (i % 40 + 1) "d\", \"status\": 201}\n", t, k, 0
  else if (i % 3 == 0) printf "{\"t\": %.6f, \"url\": \"/search?q=%d\", \"status\": 200, \"response_bytes\": %d}\n", t, k, 100 + i
  else printf "{\"t\": %.6f, \"url\": \"/item/%d/<b>\", \"status\": %d}\n", t, k, i % 50 == 1 ? 404 : 200 } }' >trace.jsonl
"$OPENLOOP" trace inspect trace.jsonl --key-param q --json p.json --html p.html -q
[[ -s p.html ]] || fail "no page written"
# xmllint's HTML parser is HTML 4's: it names HTML5's sectioning elements invalid tags, and nothing else may be said.
xmllint --html --noout p.html 2>lint.txt || true
grep -E 'error|warning' lint.txt | grep -vE 'Tag (header|main|section) invalid' >complaints.txt || true
[[ ! -s complaints.txt ]] || fail "not well-formed HTML: $(head -5 complaints.txt)"
grep -q 'Content-Security-Policy' p.html || fail "the page has the shared head's CSP"
! grep -q '<b>' p.html || fail "a path's text reached the page unescaped"
grep -qF '/item/{n}/&lt;b&gt;' p.html || fail "the endpoint is shown, escaped"
# x PATH: the text at an XPath of the page.
x() { xmllint --html --xpath "string($1)" p.html 2>/dev/null; }
# Numbers compared as numbers (the page writes 0.0 where jq prints 0).
for field in records span_s mean_rate_per_s dispersion records_beyond_series skipped_lines empty_request_lines; do
  assert_cmp "$(x "//tr[@id='$field']/td")" == "$(json p.json ".$field")" "$field on the page and in --json"
done
assert_cmp "$(json p.json .records)" == 600 "the JSON counts the trace's records"
n=$(json p.json '.endpoints | length')
assert_cmp "$n" == 3 "three endpoints"
for ((i = 0; i < n; i++)); do
  name=$(json p.json ".endpoints[$i].endpoint")
  records=$(json p.json ".endpoints[$i].records")
  [[ $(x "//table[@id='endpoints']/tr[$((i + 2))]/td[1]") == "$name" ]] || fail "endpoint $i's name"
  assert_cmp "$(x "//table[@id='endpoints']/tr[$((i + 2))]/td[2]")" == "$records" "endpoint $name's records"
done
assert_cmp "$(x "//tr[@id='request_bodies']/td[1]")" == "$(json p.json .request_bodies.count)" "request bodies' count"
assert_cmp "$(x "//tr[@id='request_bodies']/td[5]")" == "$(json p.json .request_bodies.max_bytes)" "request bodies' max"
assert_cmp "$(x "//tr[@id='response_bodies']/td[2]")" == "$(json p.json .response_bodies.mean_bytes)" \
  "response bodies' mean"
assert_cmp "$(x "//table[@id='statuses']/tr[td[1]='404']/td[2]")" == "$(json p.json '.statuses["404"]')" \
  "the 404s' count"
# The keys: the search parameter's Zipf exponent as the JSON has it.
s=$(json p.json '.keys[] | select(.place == "parameter q") | .zipf.s')
assert_cmp "$(x "//table[@id='keys']/tr[td[2]='parameter q']/td[5]")" == "$s" "the Zipf exponent of q on the page and in --json"
# The chart's series: the JSON's rate_per_second, whole.
xmllint --html --xpath "string(//script[@id='openloop-trace-data'])" p.html 2>/dev/null >data.json
[[ $(jq -c .rate data.json) == "$(jq -c .rate_per_second p.json)" ]] || fail "the chart's series is not --json's"
assert_cmp "$(jq '.rate | add' data.json)" == 600 "the series adds up to the records"
pass "trace inspect --html: well-formed, the numbers of --json, the rate series behind the chart"

set +e
"$OPENLOOP" trace inspect trace.jsonl --html "$E2E_TMP/missing-dir/p.html" -q >out.txt 2>&1
code=$?
set -e
[[ $code == 2 || $code == 4 ]] || fail "an --html in a missing folder: exit $code ($(cat out.txt))"
grep -qF -- "--html" out.txt || fail "the refusal names --html: $(cat out.txt)"
pass "an --html that cannot be written is refused, naming the flag"
