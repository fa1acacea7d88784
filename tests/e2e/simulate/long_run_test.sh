# A run longer than the intervals kept in memory (60): older intervals' histograms are parked in a spill file in
# $TMPDIR and read back for the outputs. In virtual time, 150 s of a seeded run is the same run whether or not the
# spill could be created (TMPDIR pointing nowhere: a warning, everything stays in memory), so every interval's
# histograms must come out identical, and the spill must be gone after the run.
# e2e: parallel-safe (no timing judged: see tests/e2e/CMakeLists.txt)
source "$OPENLOOP_E2E_LIB"
url=http://127.0.0.1:9/  # only a label: nothing is sent

run_sim() { # TMPDIR JSON HLOG
  TMPDIR=$1 "$OPENLOOP" simulate "$url" --rate 200/s -d 150s --seed 7 --quiet --json "$2" --hlog "$3" --no-html \
    --lab '--workers 2 --service exp:4ms --stall 200ms/20s' >/dev/null
}
mkdir -p "$E2E_TMP/spill"
run_sim "$E2E_TMP/spill" "$E2E_TMP/parked.json" "$E2E_TMP/parked.hlog" || fail "simulate with a spill directory failed"
run_sim "$E2E_TMP/nowhere" "$E2E_TMP/kept.json" "$E2E_TMP/kept.hlog" || fail "simulate without a spill directory failed"
[[ -z $(ls -A "$E2E_TMP/spill") ]] || fail "the spill file was left behind: $(ls -A "$E2E_TMP/spill")"

parked=$E2E_TMP/parked.json kept=$E2E_TMP/kept.json
assert_cmp "$(jq '.intervals | length' "$parked")" == 150 "every interval written"
assert_conserved "$parked"
jq -e '[.warnings[] | select(test("interval spill file"))] | length == 0' "$parked" >/dev/null ||
  fail "a spill warning although the directory exists: $(jq -c .warnings "$parked")"
jq -e '[.warnings[] | select(test("nowhere: cannot create the interval spill file.*stays in memory"))] | length == 1' \
  "$kept" >/dev/null || fail "no warning naming the spill directory: $(jq -c .warnings "$kept")"
jq -c '.intervals[].histograms' "$parked" >"$E2E_TMP/parked.hists"
jq -c '.intervals[].histograms' "$kept" >"$E2E_TMP/kept.hists"
cmp -s "$E2E_TMP/parked.hists" "$E2E_TMP/kept.hists" ||
  fail "parked intervals' histograms differ from those kept in memory: $(diff "$E2E_TMP/parked.hists" "$E2E_TMP/kept.hists" | head -c 600)"
[[ $(grep -v '^#' "$E2E_TMP/parked.hlog") == $(grep -v '^#' "$E2E_TMP/kept.hlog") ]] ||
  fail "the .hlog of a parked run differs from the one kept in memory"
# The report reads every interval back: its CSV has one row per interval.
"$OPENLOOP" report "$parked" --format csv >"$E2E_TMP/parked.csv"
assert_cmp "$(grep -c '^total,[0-9]' "$E2E_TMP/parked.csv")" == 150 "one CSV row per interval"
pass "150 intervals parked beyond the latest 60 read back identical to those kept in memory"
