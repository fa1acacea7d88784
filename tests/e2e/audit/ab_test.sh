#!/usr/bin/env bash
# A real ab -g (closed loop, 10 at a time, starts stamped to the second) against the lab frozen for 1 s: the audit
# says the model is the tool's (the file cannot show it), finds about 10 in the loop by Little's law, and corrects
# the p99 with one pooled expected interval, said so.
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
require_tools ab jq

start_lab --workers 10 --service 2ms --stall-at 2s+1s
timeout 30 ab -q -t 5 -c 10 -g "$E2E_TMP/ab.tsv" "$LAB_URL/" >"$E2E_TMP/ab.out" 2>&1 ||
  fail "ab failed: $(tail -n 5 "$E2E_TMP/ab.out")"
rows=$(($(wc -l <"$E2E_TMP/ab.tsv") - 1))
assert_cmp "$rows" '>' 1000 "ab recorded its requests ($rows)"

"$OPENLOOP" audit "$E2E_TMP/ab.tsv" --format-out json >"$E2E_TMP/audit.json" || fail "audit exit $?"
A=$E2E_TMP/audit.json
[[ $(json "$A" .tool) == ab ]] || fail "tool: $(json "$A" .tool)"
[[ $(json "$A" .model.model) == closed ]] || fail "model: $(json "$A" .model.model)"
json "$A" .model.evidence | grep -qF "not measured" || fail "the evidence should say the model is the tool's"
json "$A" '.limits[0]' | grep -qF "to the second" || fail "the 1-s stamps are not named as a limit"
pass "closed by construction, limits said: $(json "$A" '.limits[0]')"
assert_near "$(json "$A" .little.n)" 10 2 "Little's law: N = X·R near ab's -c 10"
json "$A" .omission.why | grep -qF "median response time" || fail "pooled interval not explained"
unc=$(json "$A" .omission.uncorrected.p99_s)
cor=$(json "$A" .omission.corrected.p99_s)
assert_cmp "$cor" '>' "$(awk -v u="$unc" 'BEGIN { print 2 * u }')" "corrected p99 $cor s above twice ab's p99 $unc s"
pass "coordinated omission: p99 $unc s as recorded, $cor s corrected"
