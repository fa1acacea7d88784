# The generator reaching its open-file limit is counted as the generator's own error, not the target's, and the
# verdict names it (INVALID, exit 3). The limit is 200 descriptors and the shell holds 150 of them (inherited by
# openloop), so about 40 are left for connections; the server never answers and each request holds its connection
# for the 2 s timeout, so the 100 arrivals need 100 connections (--max-connections 120 passes the plan's check:
# 120 + 64 ≤ 200).
# e2e: parallel-safe (descriptors exhausted by construction)
source "$OPENLOOP_E2E_LIB"
source "$(dirname "$0")/hostile_lib.sh"
start_hostile
ulimit -n 200
for _ in $(seq 150); do exec {fd}</dev/null; done
HOSTILE_RATE=100/s HOSTILE_DURATION_MS=1000 HOSTILE_TIMEOUT_MS=2000 \
  hostile_run fd_limit "http://127.0.0.1:$SILENT_PORT/" --max-connections 120
[[ $CODE == 3 ]] || fail "exit $CODE, expected 3 (INVALID): $(cat "$E2E_TMP/fd_limit.txt" "$E2E_TMP/fd_limit.err")"
assert_complete_results "$R" 1
generator=$(json "$R" .summary.counts.errors_by_kind.generator)
assert_cmp "$generator" ">=" 40 "at least 40 of 100 requests found no descriptor ($(jq -c .summary.counts "$R"))"
assert_cmp "$(json "$R" .summary.counts.errors_by_kind.connect)" == 0 "none blamed on the target's connect"
assert_cmp "$(json "$R" .summary.counts.timeouts)" ">=" 20 "the requests that got a connection timed out"
json "$R" '.verdict.reasons[]' | grep -q "^the generator itself failed $generator of 100 intended requests" ||
  fail "the verdict names the generator's errors: $(jq -c .verdict.reasons "$R")"
json "$R" .summary.error_examples.generator | grep -qi 'too many open files' ||
  fail "example: $(json "$R" .summary.error_examples)"
grep -q 'generator itself failed' "$E2E_TMP/fd_limit.txt" || fail "the summary names the generator's errors"
pass "$generator requests failed for want of a descriptor: counted as the generator's, run INVALID"
