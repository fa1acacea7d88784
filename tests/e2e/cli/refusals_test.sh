# Refused at parse time with the reason, exit 2, nothing sent: counts of 0 that cannot mean "none", report flags that
# would change nothing, --deadline beyond --timeout, a word where a subcommand belongs.
# e2e: parallel-safe (no timing judged: see tests/e2e/CMakeLists.txt)
source "$OPENLOOP_E2E_LIB"
url=http://127.0.0.1:9/
expect_usage '--threads: 0 is not accepted: give at least 1 worker thread' "$url" --rate 10 -t 0
expect_usage '--max-connections: 0 is not accepted: give at least 1 connection' "$url" --rate 10 --max-connections 0
expect_usage '--vus: 0 is not accepted: give at least 1 user' "$url" --vus 0 -d 1s
expect_usage '--max-sessions: 0 is not accepted' "$url" --session-rate 10 --max-sessions 000
expect_usage '--deadline 2s is longer than --timeout 1s' "$url" --rate 10 --timeout 1s --deadline 2s
expect_usage '--deadline: must be greater than 0' "$url" --rate 10 --deadline 0
expect_usage '--deadline: "soon" is not a duration' "$url" --rate 10 --deadline soon
expect_usage '--max-lateness: must be greater than 0' "$url" --rate 10 --max-lateness 0
expect_usage '--report-dir: writes results.json itself' "$url" --rate 10 --report-dir "$E2E_TMP/out" --json x.json
[[ ! -e $E2E_TMP/out ]] || fail "a refused --report-dir was created"
expect_usage '--report-dir: the parent directory of' "$url" --rate 10 --report-dir "$E2E_TMP/no/such/dir"
pass "run refuses counts of 0, a deadline past the timeout and clashing outputs"

# report: the hgrm options change nothing in another format.
echo '{}' >"$E2E_TMP/r.json"
for flag in "--tag service_time" "--ticks-per-half 10" "--unit-ratio 1e3"; do
  set +e
  # shellcheck disable=SC2086 # the flag and its value are two words
  "$OPENLOOP" report "$E2E_TMP/r.json" --format html $flag >"$E2E_TMP/out.txt" 2>&1
  code=$?
  set -e
  [[ $code == 2 ]] || fail "report $flag with --format html: exit $code, expected 2"
  grep -qF -- "${flag%% *}: applies to --format hgrm only" "$E2E_TMP/out.txt" ||
    fail "report $flag: $(cat "$E2E_TMP/out.txt")"
done
pass "report refuses the hgrm options outside --format hgrm"

# An unknown subcommand is named, with the ones there are.
set +e
"$OPENLOOP" foo --rate 10 >"$E2E_TMP/out.txt" 2>&1
code=$?
set -e
[[ $code == 2 ]] || fail "openloop foo: exit $code, expected 2"
grep -qF '"foo" is not a subcommand; use one of run, lab, simulate, validate, report, merge, compare, ramp, probe' "$E2E_TMP/out.txt" ||
  fail "openloop foo: $(cat "$E2E_TMP/out.txt")"
pass "unknown subcommand named"
