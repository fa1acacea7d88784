# docs/cli.md is what `openloop help --markdown` writes from the option registrations --help prints: this fails
# when an option, placeholder, group, default or description changed and the file was not regenerated.
# e2e: parallel-safe (no timing judged: see tests/e2e/CMakeLists.txt)
source "$OPENLOOP_E2E_LIB"
committed="$(dirname "${BASH_SOURCE[0]}")/../../../docs/cli.md"
[[ -f $committed ]] || fail "docs/cli.md is missing; write it with: make cli-docs"
"$OPENLOOP" help --markdown >"$E2E_TMP/cli.md" || fail "'openloop help --markdown' exit $?"
diff -u "$committed" "$E2E_TMP/cli.md" >"$E2E_TMP/diff.txt" ||
  fail "docs/cli.md differs from the binary's options; regenerate it with: make cli-docs (then commit it)
$(head -40 "$E2E_TMP/diff.txt")"
pass "docs/cli.md equals 'openloop help --markdown'"

# Every subcommand --help lists is in the reference, and every option of run's --help is a row of it.
for sub in run lab simulate validate report merge compare ramp probe audit "probe metastable"; do
  grep -q "^## openloop $sub\$" "$committed" || fail "docs/cli.md has no section for $sub"
done
"$OPENLOOP" run --help | grep -oE '^  (-[a-zA-Z],)?--[a-z0-9.-]+' | sed 's/^ *//' | grep -v -- '--help' >"$E2E_TMP/flags.txt"
[[ $(wc -l <"$E2E_TMP/flags.txt") -ge 40 ]] || fail "run --help lists only $(wc -l <"$E2E_TMP/flags.txt") options"
while read -r flag; do
  grep -qF "| \`$flag" "$committed" || fail "run --help's $flag is not a row of docs/cli.md"
done <"$E2E_TMP/flags.txt"
pass "every subcommand and every option of run --help is in docs/cli.md"

# `help` is hidden: not among the subcommands --help lists.
"$OPENLOOP" --help >"$E2E_TMP/top.txt"
! grep -qE '^  help ' "$E2E_TMP/top.txt" || fail "openloop --help lists the hidden help subcommand"
pass "the help subcommand is hidden"
