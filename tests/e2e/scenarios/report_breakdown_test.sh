# A two-scenario plan against the lab, then `openloop report` re-renders it from the results file alone: the text is
# what the run printed, and the CSV and HTML hold a row per scenario and per request (of each scenario and of the
# scenarios combined), with the numbers of the JSON: scenarios add up to the total, requests to their scenario, and
# `openloop merge` keeps both breakdowns.
# e2e: parallel-safe (the file re-rendered; breakdowns add up)
source "$OPENLOOP_E2E_LIB"
start_lab --workers 8 --service 1ms
cd "$E2E_TMP"
cat >plan.yaml <<PLAN
target: $LAB_URL
variables:
  sku: zipf(1000, 1.1)
requests:
  get_item: GET /item/{{sku}}
  search: GET /search?q={{sku}}
  checkout: POST /checkout
scenarios:
  browse:
    model: open
    rate: 100/s
    duration: 2s
    mix: {get_item: 3, search: 1}
  shoppers:
    model: sessions
    session_rate: 10/s
    start: 1s
    duration: 2s
    steps: [get_item, checkout]
PLAN
code=0
"$OPENLOOP" run plan.yaml --threads 1 --json r.json >run.txt 2>run.err || code=$?
# INVALID only for the generator's own lateness on a busy box (a scenario's reasons are prefixed with its name).
accept_invalid_only_for "$code" r.json '^([a-z]+: )?send lateness'
assert_conserved r.json

"$OPENLOOP" report r.json >text.txt || fail "report text exit $?"
cmp -s run.txt text.txt || fail "report text differs from what the run printed: $(diff run.txt text.txt | head)"
grep -q '^=== scenario shoppers ===$' text.txt || fail "text: a summary per scenario"

# csv_cell SCOPE INTERVAL COLUMN: one cell of r.csv (the row of SCOPE whose interval column is INTERVAL).
"$OPENLOOP" report r.json -f csv -o r.csv || fail "report csv exit $?"
csv_cell() {
  awk -F, -v scope="$1" -v interval="$2" -v name="$3" '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $1 == scope && $2 == interval { print $col[name]; found = 1 }
    END { if (!found) print "missing" }' r.csv
}
# csv_sum SCOPE COLUMN: the column summed over SCOPE's interval rows.
csv_sum() {
  awk -F, -v scope="$1" -v name="$2" '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $1 == scope && $2 != "all" { s += $col[name] } END { print s + 0 }' r.csv
}
head -1 r.csv | grep -q '^scope,interval,start_unix_s,start_s,length_s,intended,' || fail "csv header: $(head -1 r.csv)"
total=$(json r.json .summary.counts.intended)
assert_cmp "$(csv_cell total all intended)" == "$total" "csv: the total row is the JSON's total"
scenario_sum=0
for scenario in browse shoppers; do
  want=$(json r.json ".scenarios[] | select(.name == \"$scenario\") | .summary.counts.intended")
  assert_cmp "$want" ">" 0 "$scenario sent requests"
  assert_cmp "$(csv_cell "scenario:$scenario" all intended)" == "$want" "csv: scenario $scenario as in the JSON"
  assert_cmp "$(csv_sum "scenario:$scenario" intended)" == "$want" "csv: $scenario's intervals add up"
  assert_cmp "$(csv_cell "scenario:$scenario" all ok)" == \
    "$(json r.json ".scenarios[] | select(.name == \"$scenario\") | .summary.counts.ok")" "csv: $scenario ok"
  scenario_sum=$((scenario_sum + want))
done
assert_cmp "$scenario_sum" == "$total" "the scenarios add up to the total"
check_request() {  # check_request SCENARIO REQUEST
  local want
  want=$(json r.json ".scenarios[] | select(.name == \"$1\") | .summary.by_request.$2.counts.intended")
  assert_cmp "$want" ">" 0 "$1 sent $2"
  assert_cmp "$(csv_cell "scenario:$1/request:$2" all intended)" == "$want" "csv: $1/$2 as in the JSON"
  assert_cmp "$(csv_sum "scenario:$1/request:$2" intended)" == "$want" "csv: $1/$2's intervals add up"
  [[ $(csv_cell "scenario:$1/request:$2" all response_time_p99_ms) != "" ]] || fail "csv: $1/$2 has its latencies"
}
check_request browse get_item
check_request browse search
check_request shoppers get_item
check_request shoppers checkout
[[ $(csv_cell "scenario:browse/request:checkout" all intended) == missing ]] || fail "csv: browse never sent checkout"
for request in get_item search checkout; do
  want=$(json r.json ".summary.by_request.$request.counts.intended")
  assert_cmp "$(csv_cell "request:$request" all intended)" == "$want" "csv: request $request over every scenario"
  assert_cmp "$want" == "$(json r.json "[.scenarios[].summary.by_request.$request.counts.intended] | add")" \
    "JSON: $request combined is the sum of the scenarios'"
done
pass "csv: rows per scenario and per request, consistent with the JSON"

"$OPENLOOP" report r.json -f html -o r.html || fail "report html exit $?"
# html_intended SCOPE: data-intended of the breakdown row with data-scope SCOPE.
html_intended() { grep -o "data-scope=\"$1\" data-intended=\"[0-9]*\"" r.html | head -1 | grep -o '[0-9]*"$' | tr -d '"'; }
grep -q '<h2>By scenario</h2>' r.html || fail "html: a per-scenario section"
assert_cmp "$(html_intended total)" == "$total" "html: the combined row"
for scenario in browse shoppers; do
  assert_cmp "$(html_intended "scenario:$scenario")" == "$(csv_cell "scenario:$scenario" all intended)" \
    "html: scenario $scenario"
done
assert_cmp "$(html_intended scenario:shoppers/request:checkout)" == \
  "$(csv_cell scenario:shoppers/request:checkout all intended)" "html: shoppers' by-request table"
assert_cmp "$(html_intended request:get_item)" == "$(json r.json .summary.by_request.get_item.counts.intended)" \
  "html: the combined by-request table"
sessions=$(json r.json '.scenarios[] | select(.name == "shoppers") | .summary.flows.sessions_intended')
grep -q "data-sessions-of=\"scenario:shoppers\" data-sessions-intended=\"$sessions\"" r.html ||
  fail "html: shoppers' sessions ($sessions intended)"
pass "html: per-scenario, per-request and sessions rows, consistent with the JSON"

# The same plan from another host at the same time, a run of its own (a copy of r.json, with its run id, would be
# refused as the same run given twice).
jq '.environment.host = "other-host" | .run_id = "r-other-host"' r.json >r2.json
"$OPENLOOP" merge r.json r2.json -o m.json -q 2>/dev/null || fail "merge exit $?"
assert_cmp "$(json m.json .summary.by_request.checkout.counts.intended)" == \
  "$((2 * $(json r.json .summary.by_request.checkout.counts.intended)))" "merge: the per-request breakdown adds up"
assert_cmp "$(json m.json '.scenarios | length')" == 2 "merge: scenarios merged by name"
assert_cmp "$(json m.json '[.scenarios[].summary.counts.intended] | add')" == "$((2 * total))" "merge: scenarios add up"
pass "report and merge keep every breakdown of a scenario file"
