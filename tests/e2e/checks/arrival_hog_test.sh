# A CPU hog pinned to the generator's core makes the generator send in bursts: the arrival-process check fails,
# names itself with its statistic and critical value, and makes the run INVALID (exit 3).
source "$OPENLOOP_E2E_LIB"
require_tools taskset jq
(($(nproc) >= 2)) || { echo "skip: needs 2 cores (the lab on the other)"; exit 77; }
start_lab
taskset -pc 1 "$LAB_PID" >/dev/null
# The hog: a busy loop on core 0 for at most 20 s, killed by the EXIT trap.
taskset -c 0 timeout 20 sh -c 'while :; do :; done' &
E2E_PIDS+=("$!")
# --spin-below 1ms: the generator polls through every wait, so it is CPU-bound too and the scheduler shares the
# core in time slices of milliseconds, each one a burst of arrivals held back. --max-lateness 1s keeps the
# lateness check out of the verdict, so the arrival check is what must catch it.
code=0
taskset -c 0 "$OPENLOOP" run "$LAB_URL/" --rate 2000/s --arrival poisson --duration 3s --threads 1 \
  --spin-below 1ms --max-lateness 1s --slo none --json "$E2E_TMP/r.json" >"$E2E_TMP/out.txt" || code=$?
r=$E2E_TMP/r.json
assert_cmp "$code" == 3 "INVALID"
[[ $(json "$r" .checks.arrivals.tested) == true ]] || fail "arrivals not tested: $(jq -c .checks.arrivals "$r")"
[[ $(json "$r" .checks.arrivals.passed) == false ]] || fail "arrival check passed: $(jq -c .checks.arrivals "$r")"
reason=$(jq -r '.verdict.reasons[] | select(startswith("arrival process: "))' "$r")
[[ -n $reason ]] || fail "no arrival-process reason: $(jq -c .verdict.reasons "$r")"
grep -qE 'A² [0-9.e+]+ > 3\.86 at 1 %' <<<"$reason" || fail "the reason names no statistic and critical value: $reason"
grep -q '^checks: arrivals ✗ (A² ' "$E2E_TMP/out.txt" || fail "summary: $(grep checks: "$E2E_TMP/out.txt")"
assert_cmp "$(json "$r" '.checks.arrivals.lanes[0].statistic')" ">" "$(json "$r" '.checks.arrivals.lanes[0].critical')" \
  "A² above its critical value"
echo "reason: $reason"
pass "a hog on the generator's core fails the arrival check"
