# SIGINT ends the run early, writes complete results marked interrupted, and exits 130.
# Robust by construction: the signal is sent once the lab has seen 200 requests (1 s of the run), not after a sleep
# a slow start-up would eat, and the upper bounds come from the run's own wall time, not from a guess.
# e2e: light (Ctrl-C after the lab saw 200 requests; bounds from the run's own wall time)
source "$OPENLOOP_E2E_LIB"
start_lab --workers 8 --service 1ms
started=$(date +%s%N)
"$OPENLOOP" run "$LAB_URL/" --rate 200/s --duration 30s --json "$E2E_TMP/r.json" >"$E2E_TMP/out.txt" &
pid=$!
for _ in $(seq 500); do  # ≤ 10 s
  (($(lab_query .arrivals) >= 200)) && break
  sleep 0.02
done
(($(lab_query .arrivals) >= 200)) || fail "the run did not reach 200 requests in 10 s"
kill -INT "$pid"
set +e
wait "$pid"
code=$?
set -e
wall_s=$(awk -v a="$started" -v b="$(date +%s%N)" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
[[ $code == 130 ]] || fail "exit $code, expected 130"
r=$E2E_TMP/r.json
[[ $(json "$r" .verdict.interrupted) == true ]] || fail "marked interrupted"
assert_conserved "$r"
assert_cmp "$wall_s" "<" 15 "stopped long before the 30 s planned"
assert_cmp "$(json "$r" .summary.counts.intended)" ">=" 200 "the part that ran is there (the lab saw 200)"
# Arrivals are issued at their intended times, never ahead: no more than 200/s over the process's whole life.
assert_cmp "$(json "$r" .summary.counts.intended)" "<=" "$(awk -v t="$wall_s" 'BEGIN { print int(200 * t) + 1 }')" \
  "scheduling stopped at the signal"
assert_cmp "$(json "$r" .summary.duration_s)" "<=" "$wall_s" "measured period is the part that ran"
# The summary's last line says so: it is what stays on screen, where the live view's lines were.
tail -n1 "$E2E_TMP/out.txt" | grep -qE '^interrupted: stopped by a signal after [0-9.]+s of the 30s planned' ||
  fail "last summary line: $(tail -n2 "$E2E_TMP/out.txt")"
pass "interrupted run written (${wall_s}s)"
