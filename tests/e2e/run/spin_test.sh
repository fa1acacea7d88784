# --spin-below: waits shorter than the threshold are polled through (counted apart as spin time, kept out of the
# CPU-saturation check); 0 always sleeps; auto measures what a timed sleep costs and says what it found.
source "$OPENLOOP_E2E_LIB"
port=$(free_port)
start_nginx "$port"
url=http://127.0.0.1:$port/
# Poisson arrivals at 2000/s: about 6 % of the gaps are under 30 µs, so some waits are that short: about 120 of the
# 2,000 in a 1-s run (2 s until stop 47; none among 2,000 has probability e^-116).
for spin in 30us 0 auto; do
  code=0
  "$OPENLOOP" run "$url" --rate 2000/s --arrival poisson --duration 1s --threads 1 --spin-below "$spin" -q \
    --json "$E2E_TMP/$spin.json" >/dev/null || code=$?
  accept_invalid_only_for "$code" "$E2E_TMP/$spin.json" '^send lateness'  # the generator's own, on a busy box
  assert_conserved "$E2E_TMP/$spin.json"
  assert_cmp "$(json "$E2E_TMP/$spin.json" .summary.counts.ok)" == "$(json "$E2E_TMP/$spin.json" .summary.counts.intended)" \
    "--spin-below $spin: every request ok"
done
assert_cmp "$(json "$E2E_TMP/30us.json" .generator.spin_below_us)" == 30 "the threshold given is the one used"
assert_cmp "$(json "$E2E_TMP/30us.json" .generator.spin_s)" ">" 0 "short waits were polled through"
# Spin time is wall time in the polling loop: on a quiet host part of the CPU time, on a loaded one also the time
# the spinning thread was runnable but off its CPU (it failed once under load as "< cpu_s" alone), never more.
assert_cmp "$(json "$E2E_TMP/30us.json" .generator.spin_s)" "<" \
  "$(jq -e '.generator.cpu_s + (.generator.run_delay_s // 0)' "$E2E_TMP/30us.json")" \
  "spin time is within the CPU time and the wait for a CPU"
assert_cmp "$(json "$E2E_TMP/0.json" .generator.spin_s)" == 0 "--spin-below 0 never spins"
[[ $(json "$E2E_TMP/auto.json" .plan.spin_below_us) == auto ]] || fail "plan records auto"
assert_cmp "$(json "$E2E_TMP/auto.json" .generator.spin_below_us)" ">" 0 "auto measured a cost"
assert_cmp "$(json "$E2E_TMP/auto.json" .generator.spin_below_us)" "<=" 30 "auto is capped at 30 µs"
pass "spin-below: threshold used, spin time counted apart"
