# `openloop merge` adds two real runs exactly: counts and histogram counts sum, intervals are aligned by wall-clock
# time, the verdict is judged again; runs of different plans are refused (exit 2) with the difference named.
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
pass "merge sums two real runs exactly and refuses mismatched plans"
