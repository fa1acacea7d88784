# --fresh runs each step on its own (--stop-at never: all three planned steps run), and --refine bisects towards
# the lab's 800/s; with the client waiting longer than the goodput deadline, throughput and goodput part past it.
# The procedure's logic, on virtual time (ramp --simulate, deterministic, about a second); the real-socket ramp is
# knee_test.sh.
# e2e: parallel-safe (no timing judged: see tests/e2e/CMakeLists.txt)
source "$OPENLOOP_E2E_LIB"
command -v jq >/dev/null || { echo "SKIP: jq is not installed"; exit 77; }
code=0
timeout 100 "$OPENLOOP" ramp http://127.0.0.1:9/ --simulate '--workers 4 --service 5ms' --from 500/s --step-add 300/s \
  --to 1100/s --hold 2s --warmup 1s --deadline 500ms --timeout 3s --fresh --refine --tol 5% --cooldown 2s \
  --stop-at never --json "$E2E_TMP/ramp.json" -q >"$E2E_TMP/out.txt" 2>"$E2E_TMP/err.txt" || code=$?
r=$E2E_TMP/ramp.json
[[ $code == 0 ]] || fail "exit $code: $(cat "$E2E_TMP/out.txt" "$E2E_TMP/err.txt")"
echo "--- table"; cat "$E2E_TMP/out.txt"
[[ $(json "$r" .simulated) == true ]] || fail "ramp JSON not labelled simulated"
[[ $(json "$r" '.runs | arrays | length') == $(json "$r" '.steps | arrays | length') ]] || fail "--fresh: one run per step"
refined=$(jq '[.steps[] | select(.refinement)] | length' "$r")
assert_cmp "$refined" ">=" 1 "--refine added bisection steps"
capacity=$(json "$r" .findings.capacity.rps)
assert_cmp "$capacity" ">=" 680 "capacity within 15% of the lab's 800/s"
assert_cmp "$capacity" "<=" 920 "capacity within 15% of the lab's 800/s"
assert_cmp "$(json "$r" .findings.capacity.tolerance)" "<=" 0.05 "refined to the tolerance"
# At 1,100/s the lab still completes 800/s, but the queue makes most answers later than 500 ms.
over=$(jq '.steps[] | select(.offered_rps == 1100)' "$r")
[[ -n $over ]] || fail "the 1100/s step ran"
throughput=$(jq -r .throughput_rps <<<"$over")
goodput=$(jq -r .goodput_rps <<<"$over")
assert_cmp "$throughput" ">=" 600 "past capacity the target still completes close to 800/s"
assert_cmp "$goodput" "<=" "$(awk -v t="$throughput" 'BEGIN { print 0.8 * t }')" "goodput falls below throughput"
pass "capacity $capacity/s after $refined refinement step(s); at 1100/s throughput $throughput/s, goodput $goodput/s"
