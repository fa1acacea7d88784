# ramp and probe metastable take -e, --target and --targets as run does (the same options): a plan file's ${VAR} from
# -e and its host from --target (ramp), a targets file's ${VAR}, its requests in turn and --target (ramp and probe);
# the same refusals as run.
# e2e: parallel-safe (what reached the server, whatever the verdict)
source "$OPENLOOP_E2E_LIB"
source "$(dirname "${BASH_SOURCE[0]}")/inputs_lib.sh"
cd "$E2E_TMP"
unset TARGET ITEM
start_capture

# ramp_applied JSON ARGS...: `openloop ramp ARGS --json JSON -q`: 0 (a capacity), 1 (none) or 3 (a loaded machine's
# lateness) all sent the load; the test reads what reached the capture server.
ramp_applied() {
  local out=$1 code=0
  shift
  "$OPENLOOP" ramp "$@" --max-steps 1 --hold 2s --warmup 0s --stop-at never --threads 1 -q --json "$out" \
    >"$out.txt" 2>&1 || code=$?
  [[ $code == 0 || $code == 1 || $code == 3 ]] || fail "ramp $*: exit $code: $(tail -5 "$out.txt")"
}

cat >plan.yaml <<'PLAN'
target: ${TARGET}
requests:
  get: GET /ramp/item/${ITEM:-7}
scenarios:
  s: {model: open, rate: 1/s, duration: 1s, request: get}
PLAN
ramp_applied env.json plan.yaml -e "TARGET=http://127.0.0.2:9" -e ITEM=3 --target "$CAPTURE_URL" --from 10/s
assert_cmp "$(jq -s 'map(select(.path == "/ramp/item/3")) | length' "$CAPTURE_LOG")" == \
  "$(json env.json '.runs[0].summary.counts.sent')" "every request of the ramp went to --target with -e's ITEM"
assert_cmp "$(json env.json '.runs[0].summary.counts.sent')" ">=" 15 "the step sent about 20 requests"
[[ $(jq -r '.headers.host' "$CAPTURE_LOG" | sort -u) == "${CAPTURE_URL#http://}" ]] || fail "Host header of --target"
[[ $(json env.json .target) == "$CAPTURE_URL" ]] || fail "the ramp file names the target it sent to: $(json env.json .target)"
jq -e '.runs[0].summary.phases.dns_ms | type == "number" and . >= 0' env.json >/dev/null || fail "the ramp's run reports its DNS time"
pass "ramp plan.yaml: -e fills \${VAR}, --target replaces the host"

cat >targets.txt <<'TARGETS'
GET http://127.0.0.2:9/${AREA}/one
GET http://127.0.0.2:9/${AREA}/two
TARGETS
: >"$CAPTURE_LOG"
ramp_applied t.json --targets targets.txt -e AREA=shop --target "$CAPTURE_URL" --from 10/s
one=$(jq -s 'map(select(.path == "/shop/one")) | length' "$CAPTURE_LOG")
two=$(jq -s 'map(select(.path == "/shop/two")) | length' "$CAPTURE_LOG")
assert_cmp "$one" ">=" 7 "targets sent in turn (one)"
assert_cmp "$((one - two))" "<=" 1 "targets sent in turn (one - two)"
assert_cmp "$((two - one))" "<=" 1 "targets sent in turn (two - one)"
assert_cmp "$(jq -s length "$CAPTURE_LOG")" == "$((one + two))" "nothing else was sent"
pass "ramp --targets: \${VAR} from -e, --target, requests in turn"

: >"$CAPTURE_LOG"
code=0
"$OPENLOOP" probe metastable --targets - -e AREA=probe --target "$CAPTURE_URL" --base 10/s --trigger load:20/s \
  --trigger-for 1s --baseline-for 2s --observe-for 2s --window 1s --warmup 0s --timeout 1s --threads 1 -q \
  --json p.json <targets.txt >p.txt 2>p.err || code=$?
[[ $code == 0 || $code == 1 || $code == 3 ]] || fail "probe --targets: exit $code: $(cat p.err)"
one=$(jq -s 'map(select(.path == "/probe/one")) | length' "$CAPTURE_LOG")
two=$(jq -s 'map(select(.path == "/probe/two")) | length' "$CAPTURE_LOG")
assert_cmp "$((one + two))" ">=" 40 "the probe's ~50 requests reached --target"
assert_cmp "$(jq -s length "$CAPTURE_LOG")" == "$((one + two))" "every one from the targets file"
assert_cmp "$((one - two))" "<=" 1 "targets sent in turn"
[[ $(json p.json .target) == "$CAPTURE_URL" ]] || fail "the probe file names the target: $(json p.json .target)"
jq -e '.runs[0].results.summary.phases.dns_ms | type == "number" and . >= 0' p.json >/dev/null ||
  fail "the probe's run reports its DNS time"
pass "probe metastable --targets - (standard input): \${VAR} from -e, --target"

: >"$CAPTURE_LOG"
code=0
"$OPENLOOP" probe metastable "$CAPTURE_URL/x" -e AREA=y --base 10/s --trigger load:20/s >out.txt 2>&1 || code=$?
[[ $code == 2 ]] || fail "probe URL -e: exit $code, expected 2"
grep -qF -- '-e: applies to a plan file or --targets' out.txt || fail "probe URL -e: $(cat out.txt)"
expect_usage_of ramp '--target: applies to a plan file or --targets' "$CAPTURE_URL/" --target "$CAPTURE_URL" --from 10/s
expect_usage_of ramp '--targets: the requests come from targets.txt; drop' "$CAPTURE_URL/" --targets targets.txt --from 10/s
expect_usage_of ramp 'plan.yaml:1:9: ${TARGET}: the variable TARGET is not set' plan.yaml --from 10/s
code=0
"$OPENLOOP" probe metastable plan.yaml -e TARGET="$CAPTURE_URL" --base 10/s --trigger load:20/s >out.txt 2>&1 || code=$?
[[ $code == 2 ]] && grep -q 'scenario files are not supported by the probe yet' out.txt || fail "probe plan.yaml: $(cat out.txt)"
assert_cmp "$(jq -s length "$CAPTURE_LOG")" == 0 "nothing sent by a refused command"
pass "ramp and probe refuse -e, --target and --targets where run does, naming the flag"
