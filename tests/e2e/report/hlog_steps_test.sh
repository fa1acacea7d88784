# e2e: parallel-safe
# A flow's .hlog (docs/flows.md): one tagged histogram per step (Tag=step_N:REQUEST) and one for the flow
# (Tag=flow), each the whole run's, beside the usual per-interval lines. Java's HistogramLogProcessor reads each
# tag with the total count the results JSON gives for that step (and the flow's sessions); `openloop report
# --format hgrm --tag` prints byte for byte what Java prints for it, from the .hlog and from the results file;
# `openloop merge` adds the tagged lines of two logs. The run is examples/flow-login.yaml simulated against the
# lab's auth flow (virtual time).
source "$OPENLOOP_E2E_LIB"
require_tools jq
jar=/usr/share/java/hdrhistogram.jar
command -v java >/dev/null || { echo "SKIP: java is not installed (scripts/install-deps)"; exit 77; }
[[ -f $jar ]] || { echo "SKIP: $jar is missing (libhdrhistogram-java)"; exit 77; }
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$E2E_TMP"
sed -E 's/^(    duration:) 10s/\1 3s/' "$root/examples/flow-login.yaml" >flow.yaml
grep -q 'duration: 3s' flow.yaml || fail "the plan was not edited"
"$OPENLOOP" simulate flow.yaml --lab '--auth --workers 8 --service 1ms' --json r.json --hlog r.hlog -q >out.txt 2>&1 ||
  fail "simulate exited $? ($(tail -3 out.txt))"
intervals=$(json r.json '.intervals | length')
assert_cmp "$(grep -c '^Tag=response_time,' r.hlog)" == "$intervals" "the per-interval lines are there as before"

# check TAG JQ-COUNT: one line of TAG; Java reads it with the count the results give; openloop's hgrm from the
# .hlog and from the results file is Java's.
check() {
  local tag=$1 want
  want=$(json r.json "$2")
  assert_cmp "$(grep -c "^Tag=$tag," r.hlog)" == 1 "one $tag line"
  java -Duser.timezone=UTC -cp "$jar" org.HdrHistogram.HistogramLogProcessor -i r.hlog -tag "$tag" >"java.hgrm"
  local total
  total=$(sed -n 's/.*Total count *= *\([0-9]*\)\]/\1/p' java.hgrm)
  assert_cmp "$total" == "$want" "$tag: Java's total count is the results' ($2)"
  assert_cmp "$total" ">" 0 "$tag: samples"
  "$OPENLOOP" report r.hlog --format hgrm --histogram "$tag" >hlog.hgrm || fail "report r.hlog --histogram $tag"
  diff -u java.hgrm hlog.hgrm >diff.txt || fail "$tag: hgrm from r.hlog differs from Java's: $(head -20 diff.txt)"
  "$OPENLOOP" report r.json --format hgrm --tag "$tag" >json.hgrm || fail "report r.json --tag $tag"
  diff -u java.hgrm json.hgrm >diff.txt || fail "$tag: hgrm from r.json differs from Java's: $(head -20 diff.txt)"
}
names=$(json r.json '[.summary.steps[].request] | join(",")')
[[ $names == login,account,create_order,get_order ]] || fail "the four steps: $names"
k=0
for name in login account create_order get_order; do
  check "step_$((k + 1)):$name" ".summary.steps[$k].response_time_ms.count"
  k=$((k + 1))
done
check flow .summary.flows.session_time_ms.count

# A tag that is not there: the results file's refusal lists the flow's tags.
code=0
"$OPENLOOP" report r.json --format hgrm --tag step_9:nope >/dev/null 2>err.txt || code=$?
assert_cmp "$code" == 2 "an unknown tag is bad input"
grep -qF 'step_1:login, step_2:account, step_3:create_order, step_4:get_order, flow' err.txt ||
  fail "the refusal lists the flow's tags: $(cat err.txt)"

# Merged with itself (two shards that saw the same): each tagged line's count doubles.
"$OPENLOOP" merge r.hlog r.hlog -o m.hlog -q 2>err.txt || fail "merge: $(cat err.txt)"
assert_cmp "$(grep -c '^Tag=step_1:login,' m.hlog)" == 1 "one merged login line"
java -Duser.timezone=UTC -cp "$jar" org.HdrHistogram.HistogramLogProcessor -i m.hlog -tag step_1:login >merged.hgrm
assert_cmp "$(sed -n 's/.*Total count *= *\([0-9]*\)\]/\1/p' merged.hgrm)" == \
  "$((2 * $(json r.json '.summary.steps[0].response_time_ms.count')))" "merged: twice the login step's count"
pass "tagged .hlog read by Java: $(grep -o '^Tag=[^,]*' r.hlog | sort | uniq -c | tr -s ' \n' ' ')"
