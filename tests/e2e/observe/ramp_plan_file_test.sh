# A scenario file's top-level `observe:` list is observed by a ramp of that file, as by `run plan.yaml` (added to
# the flags' --observe): the host's signals, one value per step, in the ramp's JSON.
# e2e: parallel-safe (observed signals present, whatever the verdict)
source "$OPENLOOP_E2E_LIB"
start_lab --workers 4 --service 1ms
cat >"$E2E_TMP/plan.yaml" <<PLAN
target: $LAB_URL/
observe: [host]
requests:
  home: GET /
scenarios:
  browse: {model: open, rate: 50/s, duration: 10s, request: home}
PLAN
timeout 60 "$OPENLOOP" ramp "$E2E_TMP/plan.yaml" --from 50/s --step-add 50/s --to 100/s --hold 2s --warmup 0s \
  --json "$E2E_TMP/ramp.json" -q >"$E2E_TMP/out.txt" 2>&1 || true
[[ -s $E2E_TMP/ramp.json ]] || fail "ramp plan.yaml wrote no JSON: $(tail -n 5 "$E2E_TMP/out.txt")"
host=$(jq '[.observed.signals[] | select(.source == "host")] | length' "$E2E_TMP/ramp.json")
assert_cmp "$host" ">" 0 "host signals from the plan file's observe: [host]"
steps=$(jq '[.observed.signals[] | select(.source == "host")][0].steps | length' "$E2E_TMP/ramp.json")
assert_cmp "$steps" ">" 0 "a host value per step"
pass "a scenario file's observe: list is observed by its ramp"
