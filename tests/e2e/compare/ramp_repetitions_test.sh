# compare's error rates on ramp files over 20 seeded repetitions, in virtual time (ramp --simulate): each
# repetition is two independent ramps of one plan (300/s to 525/s in steps of 75/s, 1 s warm-up + 2 s hold each)
# against a lab of 10 workers of lognormal:20ms,0.3 (capacity ≈ 500/s) whose draws come from seeds of their own,
# and a third ramp against a lab 20 % slower (lognormal:24ms,0.3, capacity ≈ 417/s, a third seed). The steps sit
# away from both capacities (the last passing step at ρ ≈ 0.9 in both labs), so the brackets are not a coin toss.
# Same plan, same lab: at most one of the 20 pairs may be significant (capacity, knees, or p99 at any common
# rate: compare's JSON "significant"); the slower lab must be flagged in all 20. The seeds make every ramp
# reproducible: a failure names the files, and findings.txt holds every finding.
# e2e: parallel-safe (no timing judged: see tests/e2e/CMakeLists.txt)
source "$OPENLOOP_E2E_LIB"
require_tools jq
cd "$E2E_TMP"

# ramp_sim FILE SERVICE SEED: a simulated ramp of the plan against SERVICE, the lab's draws seeded by SEED.
ramp_sim() {
  local code=0
  "$OPENLOOP" ramp http://127.0.0.1:9/ --simulate "--workers 10 --service $2 --seed $3" --from 300/s \
    --step-add 75/s --to 525/s --hold 2s --warmup 1s --stop-at never -q --json "$1" >"$1.txt" 2>&1 || code=$?
  [[ $code == 0 ]] || fail "ramp $1 (seed $3): exit $code (0: a capacity found): $(tail -5 "$1.txt")"
}
# flagged A B: 0 when compare finds a significant difference between the two ramp files (its JSON and text beside
# A, so repetitions can run at once).
flagged() {
  "$OPENLOOP" compare "$1" "$2" --json "$1.$2.c.json" >"$1.$2.c.txt" 2>&1 || fail "compare $1 $2 exit $?: $(cat "$1.$2.c.txt")"
  [[ $(jq -r .kind "$1.$2.c.json") == ramp ]] || fail "compare $1 $2: not a ramp comparison"
  echo "$1 vs $2: $(jq -r .finding "$1.$2.c.json")" >"finding.$1.$2.txt"
  [[ $(jq -r .significant "$1.$2.c.json") == true ]]
}
# repetition I: its three ramps and two comparisons; writes rep.I ("same slow", 1 when flagged) once all passed.
repetition() {
  local i=$1 same=0 slow=0
  ramp_sim "base.$i.json" lognormal:20ms,0.3 $((1000 + i))
  ramp_sim "same.$i.json" lognormal:20ms,0.3 $((2000 + i))
  ramp_sim "slow.$i.json" lognormal:24ms,0.3 $((3000 + i))
  if flagged "base.$i.json" "same.$i.json"; then same=1; fi
  if flagged "base.$i.json" "slow.$i.json"; then slow=1; fi
  echo "$same $slow" >"rep.$i"
}

# The repetitions are independent (virtual time, their own seeds): two at a time, one per core. A repetition that
# fails exits its subshell with the message on stderr; its missing rep.I fails the test below.
two_at_a_time 20 repetition
same=0 slow=0
for i in $(seq 1 20); do
  [[ -s rep.$i ]] || fail "repetition $i did not complete (its error is above)"
  read -r s w <"rep.$i"
  same=$((same + s)) slow=$((slow + w))
  cat "finding.base.$i.json.same.$i.json.txt" "finding.base.$i.json.slow.$i.json.txt" >>findings.txt
done
[[ $(jq -r .simulated base.1.json) == true ]] || fail "base.1.json is not marked simulated"
[[ $(jq '.steps | length' base.1.json) == 4 ]] || fail "steps: $(jq '.steps | length' base.1.json), expected 4"
((same <= 1)) || fail "same plan, same lab: $same of 20 repetitions flagged: $(cat findings.txt)"
pass "ramps, same plan, same lab: $same of 20 seeded repetitions flagged (at most 1 allowed)"
((slow == 20)) || fail "lab 20 % slower: only $slow of 20 repetitions flagged: $(cat findings.txt)"
pass "ramps, lab 20 % slower: flagged in all 20 repetitions"
