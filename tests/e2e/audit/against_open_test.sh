#!/usr/bin/env bash
# The audit's corrected p99 against what openloop measures: real hey (10 workers paced by -q 50, asked for 500/s)
# and real ab (-c 2, a closed loop) each against the lab frozen once for 500 ms, then openloop's open run at the
# rate each tool meant (500/s for hey; for ab the rate its audit prints for the honest run) against a lab frozen the
# same way. The audit finds hey paced at 20 ms, and each corrected p99 is within 10 % of openloop's p99 while the
# tools' own p99 is far below it (issue 31: "a corrected p99 within 10 % of openloop's own open-model p99").
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
require_tools hey ab jq

# One freeze of 500 ms at 2.5 s in a 4-s run: about 12 % of an open run's requests (250 of 2,000 at 500/s) wait in
# it, so its p99 (the 20th slowest) sits inside the freeze (about 460 ms), where a closed or paced tool records only
# the few requests it had out (hey's 10 and ab's 2 of 2,000 or more: under 1 %), and its correction adds about as
# large a share (hey: 10 workers x 25 paces of 20 ms; ab: 2 x about 200 sends at its rate). The 2.5 s before it
# leave a slow start on a loaded host room: any 4-s run that starts within them holds the whole freeze. (8-s runs
# with the freeze at 3 s until stop 45, 5-s runs until stop 48: the same comparison in more time.)
AUDITED_RUN_S=4
lab() { start_lab --workers 10 --service 2ms --stall-at 2500ms+500ms; }
source "$(dirname "$0")/against_open_lib.sh"
lab
timeout 30 hey -z "${AUDITED_RUN_S}s" -c 10 -q 50 -o csv "$LAB_URL/" >"$E2E_TMP/hey.csv" || fail "hey failed (exit $?)"
stop_lab
"$OPENLOOP" audit "$E2E_TMP/hey.csv" --json "$E2E_TMP/hey-audit.json" >"$E2E_TMP/hey-audit.txt" ||
  fail "audit exit $?: $(cat "$E2E_TMP/hey-audit.txt")"
H=$E2E_TMP/hey-audit.json
[[ $(json "$H" .model.model) == paced ]] || fail "hey -q: model $(json "$H" .model.model): $(json "$H" .model.evidence)"
assert_near "$(json "$H" .omission.expected_interval_s)" 0.020 0.001 "the pace found: hey -q 50 is 20 ms a worker"
pass "hey -q 50 found paced: $(json "$H" .model.evidence)"
open_p99 500 hey-open
open=$OPEN_P99
unc=$(json "$H" .omission.uncorrected.p99_s) cor=$(json "$H" .omission.corrected.p99_s)
assert_cmp "$unc" '<' "$(awk -v o="$open" 'BEGIN { print o / 2 }')" "hey's own p99 $unc s hides the freeze"
within_10pct "$cor" "$open" "hey"
pass "hey: p99 $unc s as recorded, $cor s corrected, openloop at 500/s $open s"

lab
timeout 30 ab -q -t "$AUDITED_RUN_S" -c 2 -g "$E2E_TMP/ab.tsv" "$LAB_URL/" >"$E2E_TMP/ab.out" 2>&1 ||
  fail "ab failed: $(tail -n 5 "$E2E_TMP/ab.out")"
stop_lab
"$OPENLOOP" audit "$E2E_TMP/ab.tsv" --json "$E2E_TMP/ab-audit.json" >"$E2E_TMP/ab-audit.txt" ||
  fail "audit exit $?: $(cat "$E2E_TMP/ab-audit.txt")"
B=$E2E_TMP/ab-audit.json
rate=$(json "$B" .honest_run.rate_per_s)
assert_cmp "$rate" '>' 100 "ab's healthy rate"
open_p99 "$(printf '%.0f' "$rate")" ab-open
open=$OPEN_P99
unc=$(json "$B" .omission.uncorrected.p99_s) cor=$(json "$B" .omission.corrected.p99_s)
assert_cmp "$unc" '<' "$(awk -v o="$open" 'BEGIN { print o / 2 }')" "ab's own p99 $unc s hides the freeze"
within_10pct "$cor" "$open" "ab"
pass "ab: p99 $unc s as recorded, $cor s corrected, openloop at its $rate/s $open s"
