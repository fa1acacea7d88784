# --start-at: the run waits for the wall-clock time and starts on it (the lag recorded, with the clock's error
# bound, a run id, the plan hash, and a manifest renamed into place last); a start later than --max-late exits 75
# with nothing sent; a bad time or a lone --max-late is refused (exit 2).
# e2e: light (a start within 250 ms of --start-at at 200/s; exit 75 for a late one)
source "$OPENLOOP_E2E_LIB"
start_lab --workers 64 --service 1ms
r=$E2E_TMP/r.json

# 2 s ahead, to the second: a run that ignored --start-at would start at once.
start_at=$(date -u -d '+2 seconds' +%Y-%m-%dT%H:%M:%SZ)
began=$(date +%s.%N)
set +e
"$OPENLOOP" run "$LAB_URL/" --rate 200/s --duration 1s --threads 1 --quiet --no-html --start-at "$start_at" \
  --run-id e2e-start --json "$r" >/dev/null
code=$?
set -e
accept_invalid_only_for "$code" "$r" '^send lateness'
at=$(date -u -d "$start_at" +%s)
assert_cmp "$(json "$r" .start.at_unix_s)" == "$at" "start.at_unix_s is the --start-at time"
assert_cmp "$(awk -v a="$at" -v b="$began" 'BEGIN { print a - b }')" ">" 0.5 "the start was ahead when the run was launched"
lag=$(json "$r" .start.lag_s)
assert_cmp "$lag" ">=" -0.005 "started no earlier than --start-at (lag $lag s)"
assert_cmp "$lag" "<" 0.25 "started within 250 ms of --start-at (lag $lag s)"
assert_cmp "$(jq --argjson at "$at" '.environment.start_unix_s - $at' "$r")" "<" 0.25 "measurement began at the start time"
[[ $(json "$r" .run_id) == e2e-start ]] || fail "run_id is --run-id"
[[ $(json "$r" .plan_hash) =~ ^[0-9a-f]{64}$ ]] || fail "plan_hash is a SHA-256"
[[ $(json "$r" .start.clock.known) == true ]] || fail "the clock's error bound was read (adjtimex)"
json "$r" .start.clock.maxerror_s >/dev/null
pass "--start-at waited and started on time (lag $lag s)"

m=$r.manifest.json
[[ -f $m ]] || fail "no manifest beside the results"
[[ $(json "$m" .run_id) == e2e-start && $(json "$m" .plan_hash) == $(json "$r" .plan_hash) ]] ||
  fail "the manifest names the run and the plan"
[[ $(json "$m" '.files[0].path') == r.json ]] || fail "the manifest lists the results file"
[[ $(json "$m" '.files[0].sha256') == $(sha256sum "$r" | cut -d' ' -f1) ]] || fail "the manifest hashes the results"
[[ $(json "$m" .start.lag_s) == "$lag" ]] || fail "the manifest records the start lag"
# File times tick by the kernel's clock (milliseconds apart at best): the manifest is never older than the results.
assert_cmp "$(stat -c %.9Y "$m")" ">=" "$(stat -c %.9Y "$r")" "the manifest was written after the results"
pass "manifest: run id, plan hash, start lag, file hashes"

# Late: --start-at 3 s ago (a shard that came up late), --max-late 1s → exit 75, nothing sent, no results.
late=$(date -u -d '-3 seconds' +%Y-%m-%dT%H:%M:%SZ)
before=$(lab_query .arrivals)
set +e
"$OPENLOOP" run "$LAB_URL/" --rate 200/s --duration 1s --quiet --start-at "$late" --json "$E2E_TMP/late.json" \
  2>"$E2E_TMP/late.err" >/dev/null
code=$?
set -e
[[ $code == 75 ]] || fail "a late start exited $code, expected 75"
grep -q 'after --start-at .*--max-late 1s' "$E2E_TMP/late.err" || fail "the message names --start-at and --max-late"
[[ ! -e $E2E_TMP/late.json ]] || fail "a late shard wrote results"
after=$(lab_query .arrivals)
[[ $before == "$after" ]] || fail "a late shard sent requests ($before → $after)"
pass "late start: exit 75, nothing sent"

# Late by 3 s but allowed 10 s: runs, and records the lag.
set +e
"$OPENLOOP" run "$LAB_URL/" --rate 200/s --duration 1s --quiet --no-html --start-at "$late" --max-late 10s \
  --json "$E2E_TMP/allowed.json" >/dev/null
code=$?
set -e
accept_invalid_only_for "$code" "$E2E_TMP/allowed.json" '^send lateness'
assert_cmp "$(json "$E2E_TMP/allowed.json" .start.lag_s)" ">=" 2.5 "the lag is recorded"
pass "late within --max-late: runs, lag recorded"

expect_usage "--start-at: 'tomorrow'" "$LAB_URL/" --rate 10/s --start-at tomorrow
expect_usage "--start-at: '2026-12-01T10:00:00' has no time zone" "$LAB_URL/" --rate 10/s --start-at 2026-12-01T10:00:00
expect_usage "--max-late: has no effect without --start-at" "$LAB_URL/" --rate 10/s --max-late 2s
expect_usage "ahead, more than the" "$LAB_URL/" --rate 10/s --start-at 2099-01-01T00:00:00Z
pass "bad --start-at and --max-late refused"
