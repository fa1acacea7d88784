# SIGINT ends the run early, writes complete results marked interrupted, and exits 130.
source "$OPENLOOP_E2E_LIB"
port=$(free_port)
start_nginx "$port"
"$OPENLOOP" run "http://127.0.0.1:$port/" --rate 200/s --duration 30s --json "$E2E_TMP/r.json" >"$E2E_TMP/out.txt" &
pid=$!
sleep 1.5
kill -INT "$pid"
set +e
wait "$pid"
code=$?
set -e
[[ $code == 130 ]] || fail "exit $code, expected 130"
r=$E2E_TMP/r.json
[[ $(json "$r" .verdict.interrupted) == true ]] || fail "marked interrupted"
assert_conserved "$r"
assert_cmp "$(json "$r" .summary.counts.intended)" ">=" 200 "the part that ran is there"
assert_cmp "$(json "$r" .summary.counts.intended)" "<" 600 "scheduling stopped"
assert_cmp "$(json "$r" .summary.duration_s)" "<" 3 "measured period is the part that ran"
# The summary's last line says so: it is what stays on screen, where the live view's lines were.
tail -n1 "$E2E_TMP/out.txt" | grep -qE '^interrupted: stopped by a signal after [0-9.]+s of the 30s planned' ||
  fail "last summary line: $(tail -n2 "$E2E_TMP/out.txt")"
pass "interrupted run written"
