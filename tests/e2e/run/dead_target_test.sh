# A dead target (nothing listens at HOST:PORT): the run stops after its first second instead of running its whole
# duration, exits 4 (runtime failure: nothing was measured), says "nothing listens at HOST:PORT (connection
# refused)", and its verdict names the target's failure, not the generator's.
# e2e: parallel-safe (exit code against nothing; its 8 s bound is loose)
source "$OPENLOOP_E2E_LIB"
cd "$E2E_TMP"
port=$(free_port)  # nothing listens there
code=0
start=$(date +%s.%N)
"$OPENLOOP" run "http://127.0.0.1:$port/" --rate 100/s -d 20s --warmup 0s --threads 1 --timeout 500ms --slo none \
  -q --json dead.json >dead.txt 2>dead.err || code=$?
elapsed=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')
[[ $code == 4 ]] || fail "dead target: exit $code, expected 4: $(cat dead.err)"
grep -qF "nothing listens at 127.0.0.1:$port (connection refused)" dead.err ||
  fail "stderr does not name the dead target: $(cat dead.err)"
grep -qF 'every request failed to connect' dead.err || fail "stderr: $(cat dead.err)"
# 20 s planned: stopped after the first one-second interval, plus start-up and writing on a loaded machine.
assert_cmp "$elapsed" '<' 8 "stopped early, not after the whole 20 s"
assert_cmp "$(json dead.json .summary.duration_s)" '<' 5 "the measured period is the part that ran"
assert_cmp "$(json dead.json .summary.counts.errors_by_kind.connect)" '>=' 3 "connect errors counted"
[[ $(json dead.json .verdict.interrupted) == false ]] || fail "stopped for the target, not interrupted"
json dead.json '.verdict.reasons[0]' | grep -q 'the target was never reached' ||
  fail "the verdict names the target: $(jq -c .verdict.reasons dead.json)"
if jq -r '.verdict.reasons[]' dead.json | grep -qE 'could not send on schedule|sent [0-9]+ of'; then
  fail "the generator blamed for a dead target: $(jq -c .verdict.reasons dead.json)"
fi
json dead.json '.warnings[0]' | grep -qF "nothing listens at 127.0.0.1:$port" ||
  fail "the warning says why the run ended early: $(jq -c .warnings dead.json)"
grep -q 'the target was never reached' dead.txt || fail "the summary names the target: $(cat dead.txt)"
pass "dead target: exit 4 after ${elapsed}s of 20 s ($(head -n 1 dead.err))"

# The same from a plan file: its scenarios share the dead target; the run stops early as well.
cat >plan.yaml <<YAML
target: http://127.0.0.1:$port
requests:
  home: {path: /}
scenarios:
  browse: {model: open, rate: 50/s, duration: 20s, request: home}
  buy: {model: open, rate: 20/s, duration: 20s, request: home}
YAML
code=0
start=$(date +%s.%N)
"$OPENLOOP" run plan.yaml --warmup 0s --threads 1 --timeout 500ms --slo none -q --json plan.json >plan.txt \
  2>plan.err || code=$?
elapsed=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')
[[ $code == 4 ]] || fail "plan file, dead target: exit $code, expected 4: $(cat plan.err)"
grep -qF "nothing listens at 127.0.0.1:$port (connection refused)" plan.err ||
  fail "plan file: stderr does not name the dead target: $(cat plan.err)"
assert_cmp "$elapsed" '<' 8 "plan file: stopped early, not after the whole 20 s"
[[ $(json plan.json .verdict.interrupted) == false ]] || fail "plan file: stopped for the target, not interrupted"
json plan.json '.warnings[0]' | grep -qF "nothing listens at 127.0.0.1:$port" ||
  fail "plan file: the warning says why the run ended early: $(jq -c .warnings plan.json)"
pass "plan file, dead target: exit 4 after ${elapsed}s of 20 s"
