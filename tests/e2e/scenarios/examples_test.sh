# Every example scenario file in examples/ runs against the lab (its target pointed at the lab): each is VALID (or
# INVALID only for the generator's own send lateness on a busy machine),
# conserves every request, and reports each scenario apart; the open-zipf example draws many keys (no single-key
# warning) while a plain URL run warns that every request used one key. Each example runs a tenth of its length
# (every `duration:` and `start:` of N s becomes ceil(N/10) s, so 10 s runs take 1 s; a quarter until stop 45, an
# eighth until stop 47):
# nothing checked here depends on the length (the file is loaded, every scenario runs, conserves and is reported;
# the examples' own numbers are loaded in full by tests/workload's example tests).
# e2e: light (every example runs and conserves; INVALID only for the generator's lateness)
source "$OPENLOOP_E2E_LIB"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
start_lab --workers 8 --service 1ms
cp -r "$root/examples" "$E2E_TMP/examples"
for plan in "$E2E_TMP"/examples/*.yaml; do
  name=$(basename "$plan" .yaml)
  sed -i -E "s#^target: http://127\.0\.0\.1:8080#target: $LAB_URL#" "$plan"
  perl -pi -e 's/\b(duration|start): (\d+)s\b/"$1: " . int(($2 + 9) \/ 10) . "s"/ge' "$plan"
  code=0
  "$OPENLOOP" run "$plan" --json "$E2E_TMP/$name.json" --html "$E2E_TMP/$name.html" >"$E2E_TMP/$name.txt" 2>&1 ||
    code=$?
  r=$E2E_TMP/$name.json
  accept_invalid_only_for "$code" "$r" '^([a-z-]+: )?send lateness'
  assert_conserved "$r"
  n=$(jq '.scenarios | length' "$r")
  assert_cmp "$n" ">=" 1 "$name: scenarios reported"
  assert_conserved "$r" '[.scenarios[] | .summary.counts, .intervals[].counts]'
  total=$(jq '[.scenarios[].summary.counts.intended] | add' "$r")
  assert_cmp "$(json "$r" .summary.counts.intended)" == "$total" "$name: the combined run adds the scenarios"
  assert_cmp "$(json "$r" .summary.counts.ok)" ">" 0 "$name: requests succeeded"
  echo "  $name: $n scenario(s), $(json "$r" .summary.counts.intended) requests, verdict $(json "$r" .verdict.valid)"
done
[[ $(jq '.warnings | length' "$E2E_TMP/open-zipf.json") == 0 ]] || fail "zipf keys: no single-key warning"
# Per-request breakdown in every output: JSON, terminal, HTML report.
assert_cmp "$(jq '.summary.by_request | length' "$E2E_TMP/sessions.json")" == 3 "sessions.json: three requests broken down"
grep -q 'view_item' "$E2E_TMP/sessions.txt" || fail "terminal summary breaks down by request"
# (The loop above wrote each example's HTML report beside its JSON.)
grep -q 'By request' "$E2E_TMP/sessions.html" && grep -q 'view_item' "$E2E_TMP/sessions.html" ||
  fail "HTML report breaks down by request"
"$OPENLOOP" run "$LAB_URL/item/42" --rate 200/s --duration 1s --json "$E2E_TMP/one.json" >/dev/null || true
# The lab without --cache says so in its Server-Timing (cache;desc=off): a one-URL run against it does not warn of a
# cache (tests/e2e/checks/cache_signal_test.sh covers a cache and a server that says nothing).
[[ $(jq '[.warnings[] | select(test("measured a cache"))] | length' "$E2E_TMP/one.json") == 0 ]] ||
  fail "a one-URL run against the lab without a cache warned of one: $(jq -c .warnings "$E2E_TMP/one.json")"
pass "every example runs against the lab"
