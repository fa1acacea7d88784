# --send-deadline X-Deadline tells the lab (--deadline-header X-Deadline) each attempt's remaining budget, so past
# capacity the lab drops at dequeue (504, no work) the requests whose client has given up; without the header it
# serves them all, for nobody. On virtual time (openloop simulate: the lab's own deadline parsing and model,
# deterministic, well under a second); the header's bytes over real sockets are same_bytes_test.sh's.
# e2e: parallel-safe (no timing judged: see tests/e2e/CMakeLists.txt)
source "$OPENLOOP_E2E_LIB"
source "$(dirname "$0")/retry_lib.sh"
url=http://127.0.0.1:9/  # only a label: nothing is sent
# Capacity 50/s offered 80/s: the FIFO queue grows by 30/s and waits soon exceed the 300 ms deadline.
lab=(--lab '--workers 1 --service 20ms --deadline-header X-Deadline')
"$OPENLOOP" simulate "$url" "${lab[@]}" --rate 80/s --duration 3s --timeout 300ms --send-deadline X-Deadline \
  --observe lab --json "$E2E_TMP/d.json" -q >/dev/null || true  # the overload fails the default SLO; conservation still holds
assert_conserved "$E2E_TMP/d.json"
expired=$(json "$E2E_TMP/d.json" '.summary.counts.status_classes["5xx"]')
echo "with the header: $(counts d)"
assert_cmp "$expired" ">=" 20 "the lab expired (504) work whose client deadline had passed, some in time to say so"
assert_cmp "$(json "$E2E_TMP/d.json" '.summary.counts.status_classes["4xx"]')" == 0 "every header was readable"
# The lab's own count (service_stats, as /_lab/stats; and per interval with --observe lab): it expired more than
# the client saw answered 504, the rest after the client had timed out.
lab_expired=$(json "$E2E_TMP/d.json" .service_stats.expired)
assert_cmp "$lab_expired" ">" "$expired" "the lab expired more than the 504s the client read"
assert_cmp "$(json "$E2E_TMP/d.json" .service_stats.arrivals)" == "$(json "$E2E_TMP/d.json" .summary.counts.attempts)" \
  "every attempt reached the lab"
observed=$(jq '[.intervals[] | .observed.lab.expired * .length_s] | add' "$E2E_TMP/d.json")
assert_cmp "$observed" ">" 0 "--observe lab: the lab's expired rate per interval"
assert_cmp "$observed" "<=" "$lab_expired" "--observe lab: within the lab's total"
pass "with --send-deadline: $expired answered 504 by the lab, $lab_expired expired in all"

"$OPENLOOP" simulate "$url" "${lab[@]}" --rate 80/s --duration 3s --timeout 300ms \
  --json "$E2E_TMP/n.json" -q >/dev/null || true
assert_conserved "$E2E_TMP/n.json"
echo "without the header: $(counts n)"
assert_cmp "$(json "$E2E_TMP/n.json" '.summary.counts.status_classes["5xx"]')" == 0 \
  "without the header the lab serves everything, for nobody"
assert_cmp "$(json "$E2E_TMP/n.json" .service_stats.expired)" == 0 "without the header the lab expires nothing"
assert_cmp "$(json "$E2E_TMP/n.json" .summary.counts.timeouts)" ">" "$(json "$E2E_TMP/d.json" .summary.counts.timeouts)" \
  "and more of the client's requests time out"
pass "without --send-deadline: no 504"
