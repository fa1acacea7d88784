# compare's error rates over 20 seeded repetitions, in virtual time (openloop simulate, docs/simulate.md): each
# repetition is two independent 10-s runs of one plan (300/s constant, 100 workers of lognormal:20ms,0.3) whose
# lab draws its service times from seeds of their own, and a third run against a lab 20 % slower
# (lognormal:24ms,0.3, a third seed). Same plan, same lab: at most one of the 20 pairs may show a significant
# difference at 95 % confidence (p50, p90, p99, p99.9 and every rate and fraction); the slower lab must be flagged
# in all 20. A simulation has no rig (no network, no scheduler): what compare sees is the service's own spread,
# so the check is on the statistics, not on a busy machine; compare_test.sh keeps a pair of real-lab runs. The
# seeds make every run reproducible: a failure names the seed to rerun.
# e2e: parallel-safe (no timing judged: see tests/e2e/CMakeLists.txt)
source "$OPENLOOP_E2E_LIB"
cd "$E2E_TMP"

# sim FILE SERVICE SEED: a simulated run of the plan against SERVICE, the lab's draws seeded by SEED.
sim() {
  "$OPENLOOP" simulate http://127.0.0.1:9/ --rate 300/s -d 10s --warmup 1s --timeout 1s -q --no-html \
    --json "$1" --lab "--workers 100 --service $2 --seed $3" >"$1.txt" 2>&1 ||
    fail "simulate $1 (seed $3): exit $?: $(cat "$1.txt")"
}
# flagged A B: 0 when compare finds a significant difference between the two files (its finding line says which;
# the line is kept beside A, so repetitions can run at once).
flagged() {
  "$OPENLOOP" compare "$1" "$2" >"$1.$2.c.txt" 2>&1 || fail "compare $1 $2 exit $?: $(cat "$1.$2.c.txt")"
  local finding
  finding=$(grep '^finding: ' "$1.$2.c.txt") || fail "compare $1 $2: no finding: $(cat "$1.$2.c.txt")"
  echo "$1 vs $2: $finding" >"finding.$1.$2.txt"
  [[ $finding != 'finding: no significant difference'* ]]
}
# repetition I: its three runs and two comparisons; writes rep.I ("same slow", 1 when flagged) once all passed.
repetition() {
  local i=$1 same=0 slow=0
  sim "base.$i.json" lognormal:20ms,0.3 $((1000 + i))
  sim "same.$i.json" lognormal:20ms,0.3 $((2000 + i))
  sim "slow.$i.json" lognormal:24ms,0.3 $((3000 + i))
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
[[ $(jq -r .summary.counts.intended base.1.json) == 3000 ]] || fail "intended $(jq -r .summary.counts.intended base.1.json)"
((same <= 1)) || fail "same plan, same lab: $same of 20 repetitions flagged: $(cat findings.txt)"
pass "same plan, same lab: $same of 20 seeded repetitions flagged (at most 1 allowed)"
((slow == 20)) || fail "lab 20 % slower: only $slow of 20 repetitions flagged: $(cat findings.txt)"
pass "lab 20 % slower: flagged in all 20 repetitions"
