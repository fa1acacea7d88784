# Every command that sends load checks every output path before it sends anything: a file in a directory that
# does not exist, or a path that is a directory, exits 2 naming the flag, and the lab sees no request.
# e2e: parallel-safe (bad paths refused before anything is sent)
source "$OPENLOOP_E2E_LIB"
start_lab --workers 4 --service 1ms
cat >"$E2E_TMP/plan.yaml" <<YAML
target: $LAB_URL
requests:
  home: GET /
scenarios:
  one:
    model: open
    rate: 20/s
    duration: 1s
    request: home
YAML
mkdir "$E2E_TMP/a-directory"
missing=$E2E_TMP/no/such/dir/out
# expect_refused FLAG WANT COMMAND...: exit 2, the message names FLAG and WANT.
expect_refused() {
  local flag=$1 want=$2
  shift 2
  local code=0
  "$OPENLOOP" "$@" >"$E2E_TMP/out.txt" 2>&1 || code=$?
  [[ $code == 2 ]] || fail "$*: exit $code, expected 2: $(cat "$E2E_TMP/out.txt")"
  grep -qF -- "$flag" "$E2E_TMP/out.txt" || fail "$*: the message names $flag: $(cat "$E2E_TMP/out.txt")"
  grep -qF -- "$want" "$E2E_TMP/out.txt" || fail "$*: the message says '$want': $(cat "$E2E_TMP/out.txt")"
}
run_flags=(--rate 20/s -d 1s -q)
for flag in --json --hlog --html; do
  expect_refused "$flag" "does not exist" run "$LAB_URL/" "${run_flags[@]}" "$flag" "$missing.x"
  expect_refused "$flag" "is a directory" run "$LAB_URL/" "${run_flags[@]}" "$flag" "$E2E_TMP/a-directory"
  expect_refused "$flag" "does not exist" run "$E2E_TMP/plan.yaml" -q "$flag" "$missing.x"
done
ramp_flags=(--from 20/s --hold 2s --warmup 0s --max-steps 1 -q)
for flag in --json --html; do
  expect_refused "$flag" "does not exist" ramp "$LAB_URL/" "${ramp_flags[@]}" "$flag" "$missing.x"
  expect_refused "$flag" "is a directory" ramp "$LAB_URL/" "${ramp_flags[@]}" "$flag" "$E2E_TMP/a-directory"
done
probe_flags=(--base 20/s --trigger load:40/s --trigger-for 1s --baseline-for 2s --observe-for 2s --window 1s
  --warmup 0s -q)
for flag in --json --html; do
  expect_refused "$flag" "does not exist" probe metastable "$LAB_URL/" "${probe_flags[@]}" "$flag" "$missing.x"
  expect_refused "$flag" "is a directory" probe metastable "$LAB_URL/" "${probe_flags[@]}" "$flag" "$E2E_TMP/a-directory"
done
# The probe asks the lab for nothing with a load trigger; control requests would not count as load anyway.
sent=$(lab_query '.server.requests - .server.control_requests')
[[ $sent == 0 ]] || fail "the lab saw $sent request(s): load was sent before the output check"
pass "run, scenario runs, ramp and probe refuse bad output paths before sending (exit 2)"
