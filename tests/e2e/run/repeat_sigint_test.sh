# Ctrl-C during a --repeat cooldown ends the whole thing at once with the repeats so far written and exit 130.
# Robust by construction: the signal is sent once the run says the cooldown began (not after a sleep), and the
# cooldown (60 s) is far longer than the bound on the exit.
# e2e: light (Ctrl-C during a 60-s cooldown, at 50/s)
source "$OPENLOOP_E2E_LIB"
require_tools jq
start_lab
"$OPENLOOP" run "$LAB_URL/" --rate 50/s --duration 1s --threads 1 --repeat 3 --cooldown 60s \
  --json "$E2E_TMP/r.json" >"$E2E_TMP/out.txt" 2>"$E2E_TMP/err.txt" &
pid=$!
interrupt_on_line "$pid" "$E2E_TMP/err.txt" '^cooldown 60 s before repeat 2/3'
code=$INTERRUPT_CODE
exit_s=$INTERRUPT_EXIT_S
[[ $code == 130 ]] || fail "exit $code, expected 130"
assert_cmp "$exit_s" "<" 10 "ended promptly, not after the 60 s cooldown"
r=$E2E_TMP/r.json
[[ $(json "$r" .verdict.interrupted) == true ]] || fail "not marked interrupted"
assert_cmp "$(json "$r" '.repeats | length')" == 1 "the repeat that ran is kept"
assert_cmp "$(json "$r" .repeat_summary.planned)" == 3 "planned"
assert_cmp "$(json "$r" .repeat_summary.completed)" == 1 "completed"
assert_cmp "$(json "$r" .summary.counts.intended)" == 50 "the first repeat's requests"
assert_conserved "$r"
jq -e '.warnings | index("1 of 3 repeats ran (the rest were not started)")' "$r" >/dev/null ||
  fail "warnings: $(jq -c .warnings "$r")"
grep -q '^repeats: 1 of 3' "$E2E_TMP/out.txt" || fail "summary: $(cat "$E2E_TMP/out.txt")"
pass "interrupted in a cooldown after ${exit_s}s: one repeat written, exit 130"
