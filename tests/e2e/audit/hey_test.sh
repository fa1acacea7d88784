#!/usr/bin/env bash
# A real hey (closed loop: 10 workers, each sending as its previous response ends) against the lab frozen for 1 s:
# the audit of its CSV finds the closed model, about 10 senders by Little's law, the feedback, and a p99 corrected
# for coordinated omission above the one hey recorded.
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
require_tools hey jq

# 10 lab workers at 2 ms: hey's 10 workers never queue, so the only slowness is the freeze from 2 s to 3 s.
start_lab --workers 10 --service 2ms --stall-at 2s+1s
timeout 30 hey -z 5s -c 10 -o csv "$LAB_URL/" >"$E2E_TMP/hey.csv" || fail "hey failed (exit $?)"
rows=$(($(wc -l <"$E2E_TMP/hey.csv") - 1))
assert_cmp "$rows" '>' 1000 "hey recorded its responses ($rows)"

"$OPENLOOP" audit "$E2E_TMP/hey.csv" --json "$E2E_TMP/audit.json" --target "$LAB_URL/" >"$E2E_TMP/audit.txt" ||
  fail "audit exit $?: $(cat "$E2E_TMP/audit.txt")"
cat "$E2E_TMP/audit.txt"
A=$E2E_TMP/audit.json
[[ $(json "$A" .schema) == openloop.audit/1 ]] || fail "schema: $(json "$A" .schema)"
[[ $(json "$A" .tool) == hey ]] || fail "tool: $(json "$A" .tool)"
[[ $(json "$A" .model.model) == closed ]] || fail "model: $(json "$A" .model.model): $(json "$A" .model.evidence)"
assert_cmp "$(json "$A" .model.back_to_back_share)" '>' 0.8 "most sends followed a response's end"
pass "closed model found: $(json "$A" .model.evidence)"
# hey names no worker; what is determinable is the concurrency: N = X·(R + Z) with Z ≈ 0.
assert_near "$(json "$A" .little.n)" 10 1.5 "Little's law: N = X·(R+Z) near hey's -c 10"
pass "Little's law N = $(json "$A" .little.n)"
[[ $(json "$A" .feedback.seen) == true ]] || fail "feedback not seen: $(json "$A" .feedback.sentence)"
pass "feedback: $(json "$A" .feedback.sentence)"
[[ $(json "$A" .omission.applicable) == true ]] || fail "no correction: $(json "$A" .omission.why)"
unc=$(json "$A" .omission.uncorrected.p99_s)
cor=$(json "$A" .omission.corrected.p99_s)
assert_cmp "$cor" '>' "$(awk -v u="$unc" 'BEGIN { print 2 * u }')" "corrected p99 $cor s above twice hey's p99 $unc s"
assert_cmp "$cor" '>=' 0.3 "corrected p99 $cor s shows the 1-s freeze"
assert_cmp "$(json "$A" .omission.blocked)" '>=' 10 "every worker was blocked by the freeze"
pass "coordinated omission: p99 $unc s as recorded, $cor s corrected"
grep -qF -- "openloop run $LAB_URL/ --rate " "$E2E_TMP/audit.txt" || fail "no honest run command in the text"
grep -qE 'over [0-9.]+s' "$E2E_TMP/audit.txt" || fail "the span is not a readable duration"
if grep -qE '(^| )0 ?s bins' "$E2E_TMP/audit.txt"; then fail "a bin width printed as 0 s"; fi
pass "honest run: $(json "$A" .honest_run.command)"
