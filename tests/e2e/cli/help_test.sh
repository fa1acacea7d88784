# Every --help shows real placeholders, grouped options, examples and the exit codes; merge takes FILE...
source "$OPENLOOP_E2E_LIB"
help() { "$OPENLOOP" "$@" --help >"$E2E_TMP/help.txt" 2>&1 || fail "'$* --help' exit $?"; }
has() { grep -qE -- "$1" "$E2E_TMP/help.txt" || fail "'$2 --help' lacks /$1/: $(cat "$E2E_TMP/help.txt")"; }

help
has '^Exit codes: 0 ok, 1 an SLO failed, 2 bad usage' "openloop"
for sub in run lab validate report merge ramp probe "probe metastable"; do
  # shellcheck disable=SC2086 # "probe metastable" is two words
  help $sub
  has '^Exit codes: ' "$sub"
  [[ $sub == "probe metastable" ]] && continue
  has '^Examples:$' "$sub"
  [[ $(grep -c "^  openloop ${sub%% *} " "$E2E_TMP/help.txt") -ge 2 ]] || fail "$sub: fewer than two examples"
done
pass "examples and exit codes in every --help"

help run
for want in '--rate RATE' '-d,--duration DURATION' '-t,--threads N' '--timeout DURATION' '--deadline DURATION' \
  '--max-lateness DURATION' '--json FILE' '--report-dir DIR' '--no-html' "-H,--header 'NAME: VALUE'"; do
  has "^ +$want" run
done
for group in Target 'Load model' Client Retries Outputs Judging Advanced; do has "^$group:$" run; done
! grep -qE '(^| )(UINT|INT|TEXT|FLOAT)( |=|$)' "$E2E_TMP/help.txt" || fail "run --help still shows CLI11's type names"
pass "run --help: placeholders and groups"

help merge
has '^Usage: openloop merge \[OPTIONS\] FILE\.\.\.$' merge
! grep -q '(2x)' "$E2E_TMP/help.txt" || fail "merge --help shows (2x)"
help report
has '^With --format hgrm:$' report
has '--tag,--histogram TAG' report
pass "merge FILE... and report's hgrm group"
