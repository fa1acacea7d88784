# --spin-budget: the share of a core --spin-below auto may spin, as chosen and as spent. The host's floor is given
# (OPENLOOP_TIMER_FLOOR_US=5000: p99 5 ms against the 1-ms bound, so auto ends each sleep 7 ms early) whatever this
# host's timers do: at 100/s, one arrival every 10 ms, spinning the last 7 ms of every wait would take 70 % of a
# core, so a budget of 25 % is what caps it. The summary and the results file say the floor was given (not measured
# before the run), the budget chosen and the share spent. Bad values and contradicting flags exit 2 before sending.
source "$OPENLOOP_E2E_LIB"
start_lab --workers 4 --service 1ms
r=$E2E_TMP/r.json
code=0
OPENLOOP_TIMER_FLOOR_US=5000 "$OPENLOOP" run "$LAB_URL/" --rate 100/s --duration 3s --threads 1 -q --slo none \
  --spin-budget 25% --json "$r" --no-html >"$E2E_TMP/out.txt" 2>&1 || code=$?
accept_invalid_only_for "$code" "$r" '^send lateness' # a loaded host's CPU wait, with the budget scaled down
[[ $(json "$r" .environment.timer_floor.source) == OPENLOOP_TIMER_FLOOR_US ]] || fail "the floor's source"
assert_near "$(json "$r" .environment.timer_floor.spin_lead_us)" 7000 0.01 "auto's lead: 1.5 × 5 ms − 1 ms / 2"
assert_cmp "$(json "$r" .environment.timer_floor.spin_budget)" == 0.25 "the budget chosen"
spent=$(json "$r" .environment.timer_floor.spin_spent)
low=$(json "$r" .environment.timer_floor.spin_budget_low)
# Spinning is capped by the budget (its bucket holds 10 ms: at most 0.0033 over 3 s, plus the run's wall time
# beyond its schedule); it spent a real share of it unless the worker waited for a CPU and the budget scaled down.
assert_cmp "$spent" "<=" 0.26 "spinning stayed within the budget of 25 % of a core"
check "$spent > 0.1 || $low < 0.25" "the budget was spent (spent $spent) or scaled down by the wait for a CPU (low $low)"
grep -qE "timer floor p50 5ms p99 5ms \(given by OPENLOOP_TIMER_FLOOR_US\)" "$E2E_TMP/out.txt" ||
  fail "the generator line does not say the floor was given: $(cat "$E2E_TMP/out.txt")"
grep -qE "each wait ended 7ms early and spun, within a budget of 25% of a core, spent [0-9.]+%" "$E2E_TMP/out.txt" ||
  fail "the generator line does not say the budget chosen and spent: $(cat "$E2E_TMP/out.txt")"
grep -q "measured before the run" "$E2E_TMP/out.txt" && fail "a given floor read as measured: $(cat "$E2E_TMP/out.txt")"
pass "--spin-budget 25%: chosen, spent within it, the given floor named as given"

# Bad input: refused before anything is sent, naming the flag and what is accepted.
for bad in 0 0% 150% 1.5 abc %; do
  code=0
  "$OPENLOOP" run "$LAB_URL/" --rate 10/s -d 1s --spin-budget "$bad" >"$E2E_TMP/bad.txt" 2>&1 || code=$?
  [[ $code == 2 ]] || fail "--spin-budget $bad: exit $code, expected 2: $(cat "$E2E_TMP/bad.txt")"
  grep -q -- "--spin-budget: \"$bad\" is not a share of one core; use more than 0 and at most 1" "$E2E_TMP/bad.txt" ||
    fail "--spin-budget $bad: message: $(cat "$E2E_TMP/bad.txt")"
done
for other in "--spin-below 10ms" "--coalesce 100us"; do
  code=0
  # shellcheck disable=SC2086
  "$OPENLOOP" run "$LAB_URL/" --rate 10/s -d 1s --spin-budget 0.5 $other >"$E2E_TMP/bad.txt" 2>&1 || code=$?
  [[ $code == 2 ]] || fail "--spin-budget with $other: exit $code, expected 2: $(cat "$E2E_TMP/bad.txt")"
  grep -q -- "--spin-budget: .*drop one" "$E2E_TMP/bad.txt" || fail "with $other: message: $(cat "$E2E_TMP/bad.txt")"
done
assert_cmp "$(lab_query .completed)" == "$(json "$r" .summary.counts.completed)" "the refused runs sent nothing"
pass "--spin-budget refuses bad shares and flags that leave it nothing to cap"
