# --coalesce: the worker wakes at most once per window, sends what fell due meanwhile (late, and the lateness is
# measured and judged) and times responses by the kernel's receive stamps, so the responses it read late are not
# measured late. Against the lab: every request is served in 1 ms by one of 100 workers.
source "$OPENLOOP_E2E_LIB"
start_lab --workers 100 --service 1ms --duration 60s
# A 5 ms window at 2000/s: ten arrivals per wake-up, each response read up to 5 ms after it came. One second (two
# until stop 47): 2,000 arrivals in 200 wake-ups, every p50 below read on thousands of samples.
code=0
"$OPENLOOP" run "$LAB_URL/" --rate 2000/s --duration 1s --threads 1 --coalesce 5ms -q --json "$E2E_TMP/wide.json" \
  >/dev/null || code=$?
[[ $code == 3 ]] || fail "--coalesce 5ms: expected exit 3 (INVALID: sends up to 5 ms late), got $code"
assert_conserved "$E2E_TMP/wide.json"
assert_cmp "$(json "$E2E_TMP/wide.json" .summary.counts.ok)" == 2000 "every request answered"
assert_cmp "$(json "$E2E_TMP/wide.json" .plan.coalesce_us)" == 5000 "the plan records the window"
assert_cmp "$(json "$E2E_TMP/wide.json" .summary.send_lateness_ms.p50)" ">=" 1 "arrivals waited for the wake-up"
jq -e '.verdict.reasons | any(startswith("send lateness p99"))' "$E2E_TMP/wide.json" >/dev/null ||
  fail "the verdict names the send lateness: $(jq -c .verdict.reasons "$E2E_TMP/wide.json")"
# A window ten times the gap is bunching too: the arrival check names it (docs/statistics.md).
jq -e '.verdict.reasons | any(startswith("arrival process: sends bunched"))' "$E2E_TMP/wide.json" >/dev/null ||
  fail "the verdict names the bunching: $(jq -c .verdict.reasons "$E2E_TMP/wide.json")"
accept_invalid_only_for "$code" "$E2E_TMP/wide.json" '^send lateness p99' '^arrival process: sends bunched'  # and nothing else
# Sent at one wake-up and read at the next, 5 ms later, yet timed at the lab's 1 ms (read times would say 5 ms).
assert_cmp "$(json "$E2E_TMP/wide.json" .summary.service_time_ms.p50)" "<" 1.6 "service time from the kernel's stamps"
assert_cmp "$(json "$E2E_TMP/wide.json" .summary.service_time_ms.p50)" ">=" 1 "no response before the lab's 1 ms"

# A narrow window: the same measurement, sends within a fraction of a millisecond.
code=0
"$OPENLOOP" run "$LAB_URL/" --rate 2000/s --duration 1s --threads 1 --coalesce 200us -q \
  --json "$E2E_TMP/narrow.json" >/dev/null || code=$?
accept_invalid_only_for "$code" "$E2E_TMP/narrow.json" '^send lateness'
assert_conserved "$E2E_TMP/narrow.json"
assert_cmp "$(json "$E2E_TMP/narrow.json" .summary.counts.ok)" == 2000 "every request answered"
assert_cmp "$(json "$E2E_TMP/narrow.json" .summary.service_time_ms.p50)" "<" 1.6 "service time from the kernel's stamps"
assert_cmp "$(json "$E2E_TMP/narrow.json" .generator.spin_s)" == 0 "a coalescing worker never spins"

# --coalesce auto: precise until an interval's service times are measured, then a tenth of their p10 (the lab's
# 1 ms: about 100 µs on a quiet machine), recorded per interval.
code=0
"$OPENLOOP" run "$LAB_URL/" --rate 1000/s --duration 3s --threads 1 --coalesce auto -q --json "$E2E_TMP/auto.json" \
  >/dev/null || code=$?
accept_invalid_only_for "$code" "$E2E_TMP/auto.json" '^send lateness' '^arrival process: sends bunched'
assert_conserved "$E2E_TMP/auto.json"
[[ $(json "$E2E_TMP/auto.json" .plan.coalesce) == auto ]] ||
  fail "the plan says auto: $(json "$E2E_TMP/auto.json" .plan.coalesce)"
assert_cmp "$(jq '[.intervals[] | select(has("coalesce_us"))] | length' "$E2E_TMP/auto.json")" == 3 \
  "every interval records its window"
assert_cmp "$(json "$E2E_TMP/auto.json" '.intervals[0].coalesce_us')" == 0 "precise before anything is measured"
# At least a tenth of the lab's 1 ms (a busy machine only lengthens service times), at most half the 1 ms bound.
assert_cmp "$(json "$E2E_TMP/auto.json" '.intervals[2].coalesce_us')" ">=" 90 "a tenth of the lab's 1 ms or more"
assert_cmp "$(json "$E2E_TMP/auto.json" '.intervals[2].coalesce_us')" "<=" 500 "capped at half the lateness bound"

# Only the open model: the others send on responses, which a coalescing worker sleeps through.
expect_usage '--coalesce: applies to the open model (--rate or --stages); a closed run sends on responses' \
  "$LAB_URL/" --vus 2 --duration 1s --coalesce 1ms
expect_usage '--coalesce: "1s" is more than 100ms; use 0 (off), auto or a window such as 100us' "$LAB_URL/" --rate 10 \
  --coalesce 1s
expect_usage '--coalesce: "often" is not a duration' "$LAB_URL/" --rate 10 --coalesce often
# Scenario files: an open scenario coalesces; a plan with a session scenario is refused, naming it.
cat >"$E2E_TMP/open.yaml" <<PLAN
target: $LAB_URL
requests:
  home: GET /
scenarios:
  browse:
    model: open
    rate: 500/s
    duration: 1s
    request: home
PLAN
code=0
"$OPENLOOP" run "$E2E_TMP/open.yaml" --threads 1 --coalesce 5ms -q --json "$E2E_TMP/plan.json" >/dev/null || code=$?
# A 5 ms window at 500/s sends up to 5 ms late: INVALID by send lateness is expected, nothing else.
accept_invalid_only_for "$code" "$E2E_TMP/plan.json" '^(browse: )?send lateness'
assert_cmp "$(json "$E2E_TMP/plan.json" .summary.counts.ok)" == 500 "every request answered"
assert_cmp "$(json "$E2E_TMP/plan.json" .summary.service_time_ms.p50)" "<" 1.6 "service time from the kernel's stamps"
cat >>"$E2E_TMP/open.yaml" <<PLAN
  shoppers:
    model: sessions
    session_rate: 10/s
    duration: 1s
    steps: [home, home]
PLAN
expect_usage '--coalesce: scenario "shoppers" is sessions: it sends on responses' "$E2E_TMP/open.yaml" --coalesce 1ms
pass "coalesce: late sends measured, responses timed by the kernel"
