# Every --help shows real placeholders, grouped options, examples and the exit codes; merge takes FILE...
# e2e: parallel-safe (no timing judged: see tests/e2e/CMakeLists.txt)
source "$OPENLOOP_E2E_LIB"
help() { "$OPENLOOP" "$@" --help >"$E2E_TMP/help.txt" 2>&1 || fail "'$* --help' exit $?"; }
has() { grep -qE -- "$1" "$E2E_TMP/help.txt" || fail "'$2 --help' lacks /$1/: $(cat "$E2E_TMP/help.txt")"; }

help
has 'for its options, examples and exit codes' "openloop"
for sub in run lab simulate validate report merge compare ramp probe "probe metastable" trace "trace convert" \
  "trace sort" "trace inspect"; do
  # shellcheck disable=SC2086 # "probe metastable" is two words
  help $sub
  [[ $sub == probe ]] && { has 'openloop probe metastable --help' probe; continue; }
  [[ $sub == trace ]] && has 'openloop trace convert --help' trace
  has '^Exit codes: ' "$sub"
  # One set of type names everywhere: never CLI11's own, and columns aligned (a multi-byte placeholder is not).
  ! grep -qE '(^| )(UINT|INT|TEXT|FLOAT)( |=|$)' "$E2E_TMP/help.txt" || fail "$sub --help shows CLI11's type names"
  ! grep -qP '^  -\S.*[^\x00-\x7F].*  ' <(grep -E '^  -' "$E2E_TMP/help.txt" | cut -c1-30) ||
    fail "$sub --help: a non-ASCII placeholder misaligns its column"
  # A type name, not a letter (the lab's K, D and P were): the same words as run's (N, DURATION, ...).
  ! grep -qE '^  -[^ ]* [A-MO-Z]( |=|$)' "$E2E_TMP/help.txt" ||
    fail "$sub --help: a one-letter placeholder: $(grep -E '^  -[^ ]* [A-MO-Z]( |=|$)' "$E2E_TMP/help.txt")"
  [[ $sub == "probe metastable" ]] && continue
  has '^Examples:$' "$sub"
  [[ $(grep -c "^  openloop ${sub%% *} " "$E2E_TMP/help.txt") -ge 2 ]] || fail "$sub: fewer than two examples"
done
# ungrouped SUB: the options listed under "Options:" other than -h,--help (a grouped --help lists none there).
ungrouped() { awk '/^Options:$/ { o = 1; next } /^[A-Z][A-Za-z0-9 \/]*:$/ { o = 0 } o && /^  -/ && !/-h,--help/' \
  "$E2E_TMP/help.txt"; }
help lab
! grep -q 'SLO' "$E2E_TMP/help.txt" || fail "lab --help lists exit codes of runs (SLOs)"
for group in Server 'Service model' Faults 'Cache and dependency' Responses HTTP/2; do has "^$group:$" lab; done
[[ -z $(ungrouped) ]] || fail "lab --help: options outside a group: $(ungrouped)"
help run
[[ -z $(ungrouped) ]] || fail "run --help: options outside a group: $(ungrouped)"
help probe metastable
has '^Exit codes: 0 RECOVERED' "probe metastable"
has '^  openloop probe metastable .* --quick$' "probe metastable"
has '^ +--quick ' "probe metastable"
pass "examples, own exit codes and CLI11-free placeholders in every --help"

help run
for want in '--rate RATE' '-d,--duration DURATION' '-t,--threads N' '--timeout DURATION' '--deadline DURATION' \
  '--max-lateness DURATION' '--json FILE' '--report-dir DIR' '--no-html' "-H,--header 'NAME: VALUE'"; do
  has "^ +$want" run
done
for group in Target 'Load model' Client Retries Outputs Judging Advanced; do has "^$group:$" run; done
! grep -qE '(^| )(UINT|INT|TEXT|FLOAT)( |=|$)' "$E2E_TMP/help.txt" || fail "run --help still shows CLI11's type names"
pass "run --help: placeholders and groups"

groups_of() { grep -E '^[A-Z][a-z ]+:$' "$E2E_TMP/help.txt" | tr -d ':' | paste -sd,; }
help run
[[ $(groups_of) == *,Sharding,* ]] || fail "run --help: no Sharding group: $(groups_of)"
run_groups=$(groups_of | sed 's/,Sharding//; s/,Replay//')  # run's own (a ramp is neither sharded nor replayed)
help ramp
# ramp's own flags sit in run's groups (-e, --target, --targets with the target's), listed in run's order.
[[ $(groups_of) == "$run_groups" ]] || fail "ramp --help groups: $(groups_of); run's: $run_groups"
for want in '--from RATE' '--step-add RATE' '--hold DURATION' '--slo SLO' '--json FILE' '--targets FILE\|-' \
  '-e,--env NAME=VALUE' '--target URL' '--max-lateness DURATION'; do
  has "^ +$want" ramp
done
! grep -qE '(^| )(UINT|INT|TEXT|FLOAT)( |=|$)' "$E2E_TMP/help.txt" || fail "ramp --help still shows CLI11's type names"
[[ $(awk '/^Load model:$/ {on=1; next} /^[A-Z][a-z ]+:$/ {on=0} on && /--from/' "$E2E_TMP/help.txt") ]] ||
  fail "--from is in the Load model group: $(cat "$E2E_TMP/help.txt")"
[[ $(awk '/^Judging:$/ {on=1; next} /^[A-Z][a-z ]+:$/ {on=0} on && /--refine/' "$E2E_TMP/help.txt") ]] ||
  fail "--refine is in the Judging group"
pass "ramp --help: run's groups and placeholders"

help probe metastable
has '^ +--targets FILE\|-' "probe metastable"
has '^ +-e,--env NAME=VALUE' "probe metastable"
pass "probe metastable --help: -e, --target, --targets"

help merge
has '^Usage: openloop merge \[OPTIONS\] FILE\.\.\.$' merge
! grep -q '(2x)' "$E2E_TMP/help.txt" || fail "merge --help shows (2x)"
help report
has '^With --format hgrm:$' report
has '--tag,--histogram TAG' report
has '^ +--html FILE' report
pass "merge FILE... and report's hgrm group"
