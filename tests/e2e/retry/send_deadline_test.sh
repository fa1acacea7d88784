# --send-deadline X-Deadline tells the lab (--deadline-header X-Deadline) each attempt's remaining budget, so past
# capacity the lab drops at dequeue (504, no work) the requests whose client has given up; without the header it
# serves them all, for nobody.
source "$OPENLOOP_E2E_LIB"
source "$(dirname "$0")/retry_lib.sh"
# Capacity 50/s offered 80/s: the FIFO queue grows by 30/s and waits soon exceed the 300 ms deadline.
start_lab --workers 1 --service 20ms --deadline-header X-Deadline
"$OPENLOOP" run "$LAB_URL/" --rate 80/s --duration 3s --threads 1 --timeout 300ms --send-deadline X-Deadline \
  --json "$E2E_TMP/d.json" >/dev/null || true  # the overload may make the run INVALID; conservation still holds
assert_conserved "$E2E_TMP/d.json"
sleep 1  # let the lab drain its queue
expired=$(lab_stat expired)
echo "with the header: $(counts d); lab: $(curl -s "$LAB_URL/_lab/stats" | jq -c '{arrivals, ok, expired}')"
assert_cmp "$expired" ">=" 40 "the lab expired work whose client deadline had passed"
assert_cmp "$(lab_stat bad_requests)" == 0 "every header was readable"
assert_cmp "$(json "$E2E_TMP/d.json" .summary.counts.attempts)" == "$(lab_stat arrivals)" "one header per attempt"
pass "with --send-deadline: lab expired $expired"
kill -TERM "${E2E_PIDS[-1]}"; sleep 0.3

start_lab --workers 1 --service 20ms --deadline-header X-Deadline
"$OPENLOOP" run "$LAB_URL/" --rate 80/s --duration 3s --threads 1 --timeout 300ms \
  --json "$E2E_TMP/n.json" >/dev/null || true
assert_conserved "$E2E_TMP/n.json"
sleep 1
assert_cmp "$(lab_stat expired)" == 0 "without the header the lab serves everything, for nobody"
pass "without --send-deadline: lab expired 0"
