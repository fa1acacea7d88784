#!/usr/bin/env bash
# e2e: parallel-safe (files only: no server, nothing sent)
# Bad input to `openloop audit`: each refusal exits 2 and names the file, the line and what was expected.
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"

expect_audit_usage() {
  local want=$1; shift
  set +e
  "$OPENLOOP" audit "$@" >"$E2E_TMP/out.txt" 2>&1
  local code=$?
  set -e
  [[ $code == 2 ]] || fail "audit $* exit $code, expected 2: $(cat "$E2E_TMP/out.txt")"
  grep -qF -- "$want" "$E2E_TMP/out.txt" || fail "audit $*: message lacks '$want': $(cat "$E2E_TMP/out.txt")"
  pass "audit $*: exit 2, says '$want'"
}

expect_audit_usage "cannot be read" "$E2E_TMP/missing.csv"
printf 'a,b\n1,2\n' >"$E2E_TMP/unknown.csv"
expect_audit_usage "unknown.csv:1:" "$E2E_TMP/unknown.csv"
expect_audit_usage "--format 'k7'" "$E2E_TMP/unknown.csv" --format k7
printf 'response-time,status-code\n0.1,200\n' >"$E2E_TMP/nooffset.csv"
expect_audit_usage "lacks offset" "$E2E_TMP/nooffset.csv" --format hey
printf 'response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset\n0.1,0,0,0,0,0,200\n' \
  >"$E2E_TMP/short.csv"
expect_audit_usage "short.csv:2:" "$E2E_TMP/short.csv"

# A truncated last line is skipped and counted; the rest is audited (exit 0).
{
  echo 'response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset'
  for i in $(seq 0 99); do printf '0.0100,0,0,0,0,0,200,%s\n' "$(awk -v i="$i" 'BEGIN { printf "%.4f", i * 0.01 }')"; done
  echo '0.0100,0,0,0'
} >"$E2E_TMP/truncated.csv"
"$OPENLOOP" audit "$E2E_TMP/truncated.csv" --json "$E2E_TMP/t.json" -q || fail "truncated file: exit $?"
[[ $(json "$E2E_TMP/t.json" .records) == 100 ]] || fail "records: $(json "$E2E_TMP/t.json" .records)"
[[ $(json "$E2E_TMP/t.json" .bad_lines.count) == 1 ]] || fail "bad lines: $(json "$E2E_TMP/t.json" .bad_lines.count)"
json "$E2E_TMP/t.json" .bad_lines.first | grep -qF "truncated.csv:102:" || fail "bad line not named"
pass "a truncated last line is counted and named, the rest audited"
