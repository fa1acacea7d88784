# A flow's SLO (`--slo 'flow:...'`, docs/flows.md) as the request-level SLOs are judged:
# 1. --abort-on-slo stops a run once a flow SLO is certain to fail: `flow:p99<5ms` on sessions that think 40 ms
#    (examples/flow-login.yaml, simulated against the lab's auth flow in virtual time) stops within the first
#    seconds of 10 and names the SLO; `flow:max<5ms` likewise; `flow:p99<10s` runs to the end and is met.
# 2. Under `run --repeat` (sessions from flags: --session-rate, --session-steps) a flow SLO is judged on each
#    repeat and on their sum, on the sessions' time, and a failed one exits 1.
# e2e: light (virtual time, then sessions at 20/s judged against 10 s and 1 µs)
source "$OPENLOOP_E2E_LIB"
require_tools jq
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cp "$root/examples/flow-login.yaml" "$E2E_TMP/flow.yaml"

# 1. Certain to fail, in virtual time (10 s of sessions).
for slo in 'flow:p99<5ms' 'flow:max<5ms'; do
  code=0
  "$OPENLOOP" simulate "$E2E_TMP/flow.yaml" --lab '--auth --workers 8 --service 1ms' --slo "$slo" --abort-on-slo \
    --json "$E2E_TMP/a.json" >"$E2E_TMP/a.txt" 2>&1 || code=$?
  assert_cmp "$code" == 1 "$slo: an SLO that failed exits 1 ($(tail -3 "$E2E_TMP/a.txt"))"
  [[ $(json "$E2E_TMP/a.json" .verdict.aborted_by_slo) == "$slo" ]] ||
    fail "$slo: the run was stopped by it: $(jq -c .verdict "$E2E_TMP/a.json")"
  assert_cmp "$(json "$E2E_TMP/a.json" .summary.duration_s)" "<" 5 "$slo: stopped early (of 10 s)"
  assert_conserved "$E2E_TMP/a.json"
done
code=0
"$OPENLOOP" simulate "$E2E_TMP/flow.yaml" --lab '--auth --workers 8 --service 1ms' --slo 'flow:p99<10s' --abort-on-slo \
  --json "$E2E_TMP/met.json" >"$E2E_TMP/met.txt" 2>&1 || code=$?
assert_cmp "$code" == 0 "flow:p99<10s is met ($(tail -3 "$E2E_TMP/met.txt"))"
assert_cmp "$(json "$E2E_TMP/met.json" .summary.duration_s)" ">=" 9.9 "and the run went to its end"
jq -e '.verdict.aborted_by_slo | not' "$E2E_TMP/met.json" >/dev/null || fail "not stopped by an SLO that holds"

# 2. Under --repeat, against a real lab.
start_lab --workers 4 --service 1ms
code=0
"$OPENLOOP" run "$LAB_URL/" --session-rate 20/s --session-steps 3 --duration 1s --threads 1 --repeat 2 \
  --slo 'flow:p99<10s' --slo 'flow:max<1us' --json "$E2E_TMP/r.json" >"$E2E_TMP/r.txt" 2>&1 || code=$?
r=$E2E_TMP/r.json
if [[ $code == 3 ]]; then
  accept_invalid_only_for "$code" "$r" '^repeat [12]: (send lateness|arrival process: )'
else
  assert_cmp "$code" == 1 "a failed flow SLO exits 1 ($(tail -3 "$E2E_TMP/r.txt"))"
fi
assert_cmp "$(json "$r" '.repeats | length')" == 2 "two repeats"
for k in 0 1; do
  rep=".repeats[$k]"
  assert_cmp "$(json "$r" "[$rep.slos[] | select(.slo == \"flow:max<1us\" and .evaluated and .met == false)] | length")" \
    == 1 "repeat $((k + 1)): the flow's max judged and failed"
  assert_near "$(json "$r" "$rep.slos[] | select(.slo == \"flow:max<1us\") | .measured")" \
    "$(json "$r" "$rep.summary.flows.session_time_ms.max")" 0.000001 "repeat $((k + 1)): on its sessions' time"
done
assert_cmp "$(json "$r" '[.slos[] | select(.slo == "flow:p99<10s" and .evaluated and .met)] | length')" == 1 \
  "the flow's p99 met on the sum"
assert_near "$(json "$r" '.slos[] | select(.slo == "flow:max<1us") | .measured')" \
  "$(json "$r" .summary.flows.session_time_ms.max)" 0.000001 "the sum's flow SLO on the sum's sessions"
assert_cmp "$(json "$r" .summary.flows.session_time_ms.count)" == \
  "$(jq '[.repeats[].summary.flows.session_time_ms.count] | add' "$r")" "the sum holds every repeat's sessions"
pass "flow SLOs: aborted at $(json "$E2E_TMP/a.json" .summary.duration_s) s of 10; under --repeat judged per repeat and summed"
