# --send-deadline X-Deadline tells the lab (--deadline-header X-Deadline) each attempt's remaining budget, so past
# capacity the lab drops at dequeue (504, no work) the requests whose client has given up; without the header it
# serves them all, for nobody. On virtual time (openloop simulate: the lab's own deadline parsing and model,
# deterministic, well under a second); the header's bytes over real sockets are same_bytes_test.sh's.
source "$OPENLOOP_E2E_LIB"
source "$(dirname "$0")/retry_lib.sh"
url=http://127.0.0.1:9/  # only a label: nothing is sent
# Capacity 50/s offered 80/s: the FIFO queue grows by 30/s and waits soon exceed the 300 ms deadline.
lab=(--lab '--workers 1 --service 20ms --deadline-header X-Deadline')
"$OPENLOOP" simulate "$url" "${lab[@]}" --rate 80/s --duration 3s --timeout 300ms --send-deadline X-Deadline \
  --json "$E2E_TMP/d.json" -q >/dev/null || true  # the overload fails the default SLO; conservation still holds
assert_conserved "$E2E_TMP/d.json"
expired=$(json "$E2E_TMP/d.json" '.summary.counts.status_classes["5xx"]')
echo "with the header: $(counts d)"
assert_cmp "$expired" ">=" 20 "the lab expired (504) work whose client deadline had passed, some in time to say so"
assert_cmp "$(json "$E2E_TMP/d.json" '.summary.counts.status_classes["4xx"]')" == 0 "every header was readable"
pass "with --send-deadline: $expired answered 504 by the lab"

"$OPENLOOP" simulate "$url" "${lab[@]}" --rate 80/s --duration 3s --timeout 300ms \
  --json "$E2E_TMP/n.json" -q >/dev/null || true
assert_conserved "$E2E_TMP/n.json"
echo "without the header: $(counts n)"
assert_cmp "$(json "$E2E_TMP/n.json" '.summary.counts.status_classes["5xx"]')" == 0 \
  "without the header the lab serves everything, for nobody"
assert_cmp "$(json "$E2E_TMP/n.json" .summary.counts.timeouts)" ">" "$(json "$E2E_TMP/d.json" .summary.counts.timeouts)" \
  "and more of the client's requests time out"
pass "without --send-deadline: no 504"
