# The live view when stderr is not a terminal: a plain line every 10 s (one after 10 s of an 11-s run, none before
# the end of a shorter one), plus one at once if the verdict so far turns INVALID; --quiet: nothing on stderr. The
# terminal's redrawn view: live_view_test.sh.
# e2e: parallel-safe (the lines' form and count; INVALID accepted only for the generator's lateness)
source "$OPENLOOP_E2E_LIB"
port=$(free_port)
start_nginx "$port"
cd "$E2E_TMP"
url="http://127.0.0.1:$port/"

# Not a terminal: one plain line after 10 s (and none before the end of a shorter run).
code=0
"$OPENLOOP" run "$url" --rate 50/s --duration 11s --threads 1 --json plain.json >plain.out 2>plain.err || code=$?
accept_invalid_only_for "$code" plain.json '^send lateness'  # the generator's own, on a busy box
grep -q '^openloop: 1[01]s / 11s \[' plain.err || fail "a progress line at 10 s: $(cat plain.err)"
grep -q 'VALID so far' plain.err || fail "verdict so far in the plain line: $(cat plain.err)"
# One line per 10 s, plus one at once if the verdict so far turned INVALID (send lateness on a loaded machine).
lines=$(grep -c '^openloop: ' plain.err)
if [[ $lines == 2 ]]; then grep -q 'INVALID' plain.err || fail "a second plain line only when the verdict turns INVALID"
else assert_cmp "$lines" == 1 "one plain line per 10 s"; fi
! grep -q $'\e' plain.err || fail "no escape codes when stderr is not a terminal"

# --quiet: nothing on stderr.
code=0
"$OPENLOOP" run "$url" --rate 50/s --duration 1s --threads 1 -q --json quiet.json >quiet.out 2>quiet.err || code=$?
accept_invalid_only_for "$code" quiet.json '^send lateness'
[[ ! -s quiet.err ]] || fail "--quiet printed: $(cat quiet.err)"
pass "live view off a terminal: a plain line per 10 s, none with --quiet"
