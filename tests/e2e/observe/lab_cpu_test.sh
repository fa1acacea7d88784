#!/usr/bin/env bash
# The lab pinned to one core (taskset) with --burn (real CPU per request, 2 ms: one core serves 500/s) is ramped;
# the knee's named resource is the lab's CPU: its CPU of its allowed cores is ≥ 0.9 at the knee.
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
require_tools jq timeout taskset
(($(nproc) >= 2)) || { echo "SKIP: needs 2 CPUs (the lab on one, the generator on the other)"; exit 77; }

# start_lab runs "$OPENLOOP lab": a wrapper pins it to CPU 0 (exec: the PID stays the lab's).
real=$OPENLOOP
printf '#!/bin/sh\nexec taskset -c 0 "%s" "$@"\n' "$real" >"$E2E_TMP/pinned-openloop"
chmod +x "$E2E_TMP/pinned-openloop"
OPENLOOP=$E2E_TMP/pinned-openloop
start_lab --workers 8 --service 2ms --burn
OPENLOOP=$real
[[ $(taskset -pc "$LAB_PID" | sed 's/.*: //') == 0 ]] || fail "the lab is pinned to CPU 0: $(taskset -pc "$LAB_PID")"

code=0
timeout 100 taskset -c 1 "$OPENLOOP" ramp "$LAB_URL/" --from 150/s --step-add 100/s --to 950/s --hold 3s \
  --warmup 1s --timeout 1s --slo 'p99<=50ms' -t 1 --max-lateness 50ms --observe "pid:$LAB_PID" --observe host \
  --json "$E2E_TMP/ramp.json" >"$E2E_TMP/out.txt" 2>"$E2E_TMP/err.txt" || code=$?
r=$E2E_TMP/ramp.json
[[ $code == 0 || $code == 1 ]] || fail "exit $code: $(cat "$E2E_TMP/out.txt" "$E2E_TMP/err.txt")"
cat "$E2E_TMP/out.txt"
knee=$(jq -r '.observed.knee_step' "$r")
[[ $knee != null ]] || fail "a knee: $(jq -c .findings "$r")"
rate=$(jq -r ".steps[$knee - 1].offered_rps" "$r")
assert_cmp "$rate" ">=" 350 "the knee near one core's 500/s"
assert_cmp "$rate" "<=" 750 "the knee near one core's 500/s"
cpu=$(jq -r ".observed.saturated_at_knee[] | select(.source == \"pid:$LAB_PID\" and .name == \"cpu_of_allowed\") | .at_knee" "$r")
[[ -n $cpu ]] || fail "the lab's CPU is named at the knee: $(jq -c .observed.saturated_at_knee "$r"); $(jq -r .observed.knee "$r")"
assert_cmp "$cpu" ">=" 0.9 "the lab's CPU of its one allowed core at the knee"
grep -q "pid:$LAB_PID's CPU of its allowed cores was" "$E2E_TMP/out.txt" || fail "the sentence names it: $(tail -3 "$E2E_TMP/out.txt")"
# Below the knee the lab's CPU tracks the rate: at 150/s it is about 150 × 2 ms = 0.3 of its core.
low=$(jq -r ".observed.signals[] | select(.source == \"pid:$LAB_PID\" and .name == \"cpu_of_allowed\") | .steps[0]" "$r")
assert_cmp "$low" ">=" 0.2 "the lab's CPU at 150/s is about 0.3"
assert_cmp "$low" "<=" 0.45 "the lab's CPU at 150/s is about 0.3"
pass "knee at $rate/s named the lab's CPU ($cpu of its core; $low at 150/s)"
