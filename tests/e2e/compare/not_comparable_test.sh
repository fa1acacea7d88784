# openloop compare of a closed-loop run (--vus) and an open-model run (--rate) of the same lab: not comparable (the
# closed loop's response times leave out the wait to be sent), said in the text and the JSON with the closed run's
# users and both request counts, no table of differences, and every --fail-on gate inconclusive: exit 1 by default,
# 0 with --inconclusive pass; the same two runs in the other order say the same.
# e2e: parallel-safe (exit codes and wording; either run may be INVALID)
source "$OPENLOOP_E2E_LIB"
cd "$E2E_TMP"

start_lab --workers 4 --service 5ms
# Either run may be INVALID on a busy machine (send lateness): compare reads them all the same.
"$OPENLOOP" run "$LAB_URL/" --vus 2 -d 2s --timeout 1s -q --json closed.json >closed.txt 2>&1 || true
"$OPENLOOP" run "$LAB_URL/" --rate 100/s -d 2s --timeout 1s -q --json open.json >open.txt 2>&1 || true
for f in closed open; do [[ -s $f.json ]] || fail "no $f.json: $(cat $f.txt)"; done
[[ $(jq -r .plan.model closed.json) == closed && $(jq -r .plan.model open.json) == open ]] ||
  fail "models: $(jq -r .plan.model closed.json) and $(jq -r .plan.model open.json), expected closed and open"

code=0
"$OPENLOOP" compare closed.json open.json --fail-on 'p99>+10%' --json c.json >out.txt 2>&1 || code=$?
[[ $code == 1 ]] || fail "a gate on runs not comparable: exit $code, expected 1 (inconclusive counts as failed): $(cat out.txt)"
grep -q "not comparable: closed.json is a closed-model run (2 users waiting for each response" out.txt ||
  fail "the text does not say why the runs are not comparable: $(cat out.txt)"
grep -q "open.json an open-model run" out.txt || fail "the text does not name the open run: $(cat out.txt)"
grep -q "p99: inconclusive, the runs are not comparable; counted as failed (--inconclusive fail)" out.txt ||
  fail "the gate's outcome: $(cat out.txt)"
sent=$(jq -e '.summary.counts.sent' closed.json) || fail "closed.json: no sent count"
grep -q "the closed loop sent $sent requests" out.txt || fail "the closed loop's $sent requests not named: $(cat out.txt)"
grep -q "would have sent" out.txt || fail "what open arrivals would have sent is not named: $(cat out.txt)"
grep -qE '\[[-+0-9.]+ ?%, ?[-+0-9.]+ ?%\]' out.txt && fail "a table of differences was printed: $(cat out.txt)"
jq -e '.comparable == false and (.not_comparable | startswith("not comparable: closed.json is a closed-model run"))' \
  c.json >/dev/null || fail "c.json: comparable/not_comparable: $(jq -c '{comparable, not_comparable}' c.json)"
jq -e '[.fail_on[] | [.outcome, .failed]] == [["inconclusive", true]]' c.json >/dev/null ||
  fail "c.json: the gate: $(jq -c .fail_on c.json)"
pass "closed vs open: not comparable, named with the closed loop's users and requests; the gate inconclusive, exit 1"

code=0
"$OPENLOOP" compare open.json closed.json --fail-on 'p99>+10%' --inconclusive pass --json d.json >out2.txt 2>&1 ||
  code=$?
[[ $code == 0 ]] || fail "--inconclusive pass: exit $code, expected 0: $(cat out2.txt)"
grep -q "not comparable: closed.json is a closed-model run (2 users" out2.txt ||
  fail "the other order does not say the same: $(cat out2.txt)"
jq -e '.comparable == false and ([.fail_on[] | [.outcome, .failed]] == [["inconclusive", false]])' d.json \
  >/dev/null || fail "d.json: $(jq -c '{comparable, fail_on}' d.json)"
pass "open vs closed with --inconclusive pass: the same reason, exit 0"
