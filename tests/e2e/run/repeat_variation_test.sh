# The run-to-run flag fires when the repeats really differ: the lab's service time is changed between repeats
# (1 ms, then 40 ms, then 15 ms), so each repeat's p50 is tight around its own service time and no repeat's
# interval covers the others' median. Robust by construction: each change is posted when the run says its
# cooldown began (not after a sleep), the 1 s cooldown leaves room (the post takes tens of ms: 20-ms polls of the
# run's stderr and one curl; 3 s until stop 47), and the test checks that every change landed before its repeat
# (each repeat's p50 sits at its service time).
source "$OPENLOOP_E2E_LIB"
require_tools jq curl
start_lab --workers 8 --service 1ms
"$OPENLOOP" run "$LAB_URL/" --rate 100/s --duration 1s --threads 1 --repeat 3 --cooldown 1s --slo none \
  --json "$E2E_TMP/r.json" >"$E2E_TMP/out.txt" 2>"$E2E_TMP/err.txt" &
pid=$!
for step in "2/3 40ms" "3/3 15ms"; do
  read -r repeat service <<<"$step"
  for _ in $(seq 1000); do  # ≤ 20 s
    grep -q "^cooldown 1 s before repeat $repeat" "$E2E_TMP/err.txt" && break
    sleep 0.02
  done
  grep -q "^cooldown 1 s before repeat $repeat" "$E2E_TMP/err.txt" || fail "no cooldown before repeat $repeat"
  curl -sS --max-time 5 -X POST -d "{\"service\": \"$service\"}" "$LAB_URL/_lab/config" >/dev/null
done
set +e
wait "$pid"
code=$?
set -e
r=$E2E_TMP/r.json
accept_invalid_only_for "$code" "$r" '^repeat [123]: (send lateness|arrival process: )'
# Each change landed before its repeat: p50 at 1 ms, 40 ms, 15 ms (plus the loopback's and a loaded machine's
# overhead: a few ms).
p50s=$(jq -c '[.repeats[].summary.response_time_ms.p50]' "$r")
jq -e '.[0] >= 1 and .[0] < 15 and .[1] >= 40 and .[1] < 80 and .[2] >= 15 and .[2] < 40' <<<"$p50s" >/dev/null ||
  fail "the lab's service time did not change between repeats as posted: p50s $p50s"
jq -e '.repeat_summary.response_time.p50.within_run | .judged and .dominated and .covering == 0' "$r" >/dev/null ||
  fail "p50 not flagged: $(jq -c .repeat_summary.response_time.p50 "$r")"
[[ $(json "$r" .repeat_summary.variation_dominates) == true ]] || fail "variation_dominates false"
[[ $(json "$r" .repeat_summary.flag) == "run-to-run variation dominates: repeat, don't lengthen" ]] ||
  fail "flag: $(json "$r" .repeat_summary.flag)"
jq -e ".warnings | index(\"run-to-run variation dominates: repeat, don't lengthen\")" "$r" >/dev/null ||
  fail "flag not among the warnings"
grep -q "^  run-to-run variation dominates: repeat, don't lengthen" "$E2E_TMP/out.txt" ||
  fail "summary: $(cat "$E2E_TMP/out.txt")"
grep -q "<p class=\"check-bad\">run-to-run variation dominates: repeat, don&#39;t lengthen</p>" "$E2E_TMP/r.html" ||
  fail "HTML: the flag is not in the repeats panel"
pass "repeats at 1, 40 and 15 ms: run-to-run variation flagged (p50s $p50s)"
