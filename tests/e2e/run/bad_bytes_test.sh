# Bad bytes never crash a command or lose a run: a header typed with bytes that are not UTF-8 still gives complete
# results (the bytes shown as U+FFFD), and a results file whose plan has a value of the wrong type is refused by
# `report` with exit 2 naming the JSON path (it used to abort with SIGABRT).
# e2e: parallel-safe (bad bytes in, complete results out)
source "$OPENLOOP_E2E_LIB"
start_lab --workers 4 --service 1ms
cd "$E2E_TMP"
code=0
"$OPENLOOP" run "$LAB_URL/" --rate 20/s -d 1s --threads 1 -H "$(printf 'X-Bytes: a\xff\xfeb')" --json r.json \
  --html r.html >out.txt 2>err.txt || code=$?
if [[ $code == 3 ]]; then
  only_schedule_reasons r.json ||
    fail "verdict: $(json r.json '.verdict.reasons')"
elif [[ $code != 0 ]]; then
  fail "run with a non-UTF-8 header: exit $code: $(cat err.txt)"
fi
[[ $(json r.json .summary.counts.ok) == 20 ]] || fail "the results are complete"
jq -e '.plan.headers | index("X-Bytes: a\ufffd\ufffdb")' r.json >/dev/null ||
  fail "the bytes are written as U+FFFD: $(jq -c .plan.headers r.json)"
[[ -s r.html ]] || fail "the HTML report is written too"
pass "a non-UTF-8 header: complete results, exit $code"
# A plan value of the wrong type in a results file: exit 2 naming it, for every format.
"$OPENLOOP" run "$LAB_URL/" --rate 20/s -d 1s --threads 1 --json good.json >/dev/null 2>&1 || true
[[ -s good.json ]] || fail "a results file to corrupt"
jq '.plan.stages[0].duration_s = "ten"' good.json >stages.json
jq '.plan.retry.attempts = "three"' good.json >retry.json
for bad in stages.json:/plan/stages/0/duration_s retry.json:/plan/retry/attempts; do
  file=${bad%%:*}
  path=${bad#*:}
  for format in text html json; do
    code=0
    "$OPENLOOP" report "$file" --format "$format" -o "out.$format" >out.txt 2>&1 || code=$?
    [[ $code == 2 ]] || fail "report $file --format $format: exit $code, expected 2: $(cat out.txt)"
    grep -qF "$path" out.txt || fail "report $file --format $format: the message names $path: $(cat out.txt)"
  done
done
pass "a results file with a wrongly typed plan value is refused (exit 2, the path named)"
