# `openloop merge` adds two real runs exactly: counts and histogram counts sum, intervals are aligned by wall-clock
# time, the verdict is judged again; runs of different plans are refused (exit 2) with the difference named, as are
# the same run given twice and a ramp's or probe's file; runs apart in time are merged with a loud warning.
# e2e: parallel-safe (files merged exactly; runs may be INVALID for the generator's lateness)
source "$OPENLOOP_E2E_LIB"
port=$(free_port)
start_nginx "$port"
cd "$E2E_TMP"
run() {  # run FILE ARGS...: results in FILE; INVALID accepted only for the generator's own lateness on a busy box
  local file=$1 code=0
  shift
  "$OPENLOOP" run "http://127.0.0.1:$port/" --rate 200/s --duration 2s --threads 1 -q --json "$file" "$@" >/dev/null ||
    code=$?
  accept_invalid_only_for "$code" "$file" '^send lateness'
}
run a.json
run b.json
run c.json --timeout 2s
"$OPENLOOP" merge a.json b.json -o m.json >merge.txt 2>merge.err || fail "merge exit $?: $(cat merge.err)"
assert_conserved m.json
for field in intended sent completed ok timeouts errors dropped; do
  assert_cmp "$(json m.json .summary.counts.$field)" == \
    "$(($(json a.json .summary.counts.$field) + $(json b.json .summary.counts.$field)))" "merged $field is the sum"
done
assert_cmp "$(json m.json .summary.response_time_ms.count)" == \
  "$(($(json a.json .summary.response_time_ms.count) + $(json b.json .summary.response_time_ms.count)))" "histogram counts sum"
# b started after a ended, so the merged run spans both: from a's start to b's end.
span=$(jq -n --slurpfile a a.json --slurpfile b b.json '$b[0].environment.start_unix_s + $b[0].summary.duration_s - $a[0].environment.start_unix_s')
assert_cmp "$(json m.json .summary.duration_s)" == "$span" "merged duration from the first start to the last end"
assert_cmp "$(json m.json '.intervals | length')" ">=" 4 "intervals of both runs, aligned by time"
assert_cmp "$(json m.json '[.intervals[] | select(.counts.intended > 0)] | length')" == 4 "four busy seconds"
assert_cmp "$(json m.json .environment.start_unix_s)" == "$(json a.json .environment.start_unix_s)" "starts at the first run"
[[ $(json m.json '.environment.merged_from | length') == 2 ]] || fail "merged_from lists both inputs"
[[ $(json m.json .verdict.valid) == true || $(json m.json '.verdict.reasons | length') -gt 0 ]] || fail "verdict"
grep -q '^verdict: ' merge.txt || fail "merge prints the merged summary"
# a and b ran one after the other: the merged run includes the gap between them, and says so.
grep -q '^openloop merge: WARNING: the inputs do not overlap in time (b.json starts ' merge.err ||
  fail "warning on stderr for runs apart in time: $(cat merge.err)"
[[ $(json m.json '.warnings | map(select(test("do not overlap in time"))) | length') == 1 ]] ||
  fail "the warning is in the results: $(json m.json .warnings)"
grep -q '^warning: the inputs do not overlap in time' merge.txt || fail "and in the summary"
"$OPENLOOP" report m.json --format hgrm | grep -q "Total count *= *$(json m.json .summary.response_time_ms.count)\]" ||
  fail "the merged file renders"

rc=0
"$OPENLOOP" merge a.json c.json -o bad.json 2>err.txt || rc=$?
[[ $rc == 2 ]] || fail "mismatched merge exit $rc"
grep -qF 'cannot merge a.json with c.json: plan.timeout_s differs (5.0 in a.json, 2.0 in c.json)' err.txt ||
  fail "the difference is named: $(cat err.txt)"
[[ ! -e bad.json ]] || fail "nothing written on error"
head -c 2000 b.json >cut.json
rc=0
"$OPENLOOP" merge a.json cut.json -o bad.json 2>err.txt || rc=$?
[[ $rc == 2 ]] && grep -q '^openloop merge: cut.json:[0-9]*:[0-9]*: ' err.txt || fail "truncated input named ($rc): $(cat err.txt)"
[[ ! -e bad.json ]] || fail "nothing written on error"

# The same run twice (the same file, or a copy of it) would double every count.
for second in a.json copy.json; do
  cp a.json copy.json
  rc=0
  "$OPENLOOP" merge a.json "$second" -o bad.json 2>err.txt || rc=$?
  [[ $rc == 2 ]] || fail "merge a.json $second: exit $rc, expected 2"
  grep -qF "openloop merge: a.json and $second have the same content (the same run given twice)" err.txt ||
    fail "the duplicate is named: $(cat err.txt)"
  [[ ! -e bad.json ]] || fail "nothing written for a duplicate"
done
# A copy with one byte changed is still the same run (same host, start, plan and counts).
jq '.warnings += ["edited"]' a.json >edited.json
rc=0
"$OPENLOOP" merge a.json edited.json -o bad.json 2>err.txt || rc=$?
[[ $rc == 2 ]] && grep -qF 'a.json and edited.json are the same run' err.txt || fail "edited copy ($rc): $(cat err.txt)"
# A ramp's or a probe's results are refused with the reason.
echo '{"schema": "openloop.ramp/1", "steps": []}' >ramp.json
rc=0
"$OPENLOOP" merge a.json ramp.json -o bad.json 2>err.txt || rc=$?
[[ $rc == 2 ]] && grep -qF "openloop merge: ramp.json is a ramp's results (openloop.ramp/1): its steps ran at different rates" err.txt ||
  fail "ramp file refused with a reason ($rc): $(cat err.txt)"
echo '{"schema": "openloop.probe/1"}' >probe.json
rc=0
"$OPENLOOP" merge probe.json a.json -o bad.json 2>err.txt || rc=$?
[[ $rc == 2 ]] && grep -qF "openloop merge: probe.json is a probe's results (openloop.probe/1)" err.txt ||
  fail "probe file refused with a reason ($rc): $(cat err.txt)"
pass "merge sums two real runs exactly, warns when they ran apart, refuses mismatched plans, duplicates, ramps and probes"
