# Shared by the flows e2e tests against the lab's auth flow (sourced after lib.sh).

# run_plan NAME [FAILING]: runs $E2E_TMP/NAME.yaml, results in $E2E_TMP/NAME.json; VALID (or INVALID only for send
# lateness), or with FAILING also exit 1 (a run whose steps get 401s fails the default goodput SLO); requests and
# sessions conserved.
run_plan() {
  local code=0
  "$OPENLOOP" run "$E2E_TMP/$1.yaml" --json "$E2E_TMP/$1.json" >"$E2E_TMP/$1.txt" 2>&1 || code=$?
  if [[ ${2:-} == failing && $code == 1 ]]; then code=0; fi
  accept_invalid_only_for "$code" "$E2E_TMP/$1.json" '^([a-z-]+: )?send lateness'
  assert_conserved "$E2E_TMP/$1.json"
  local bad
  bad=$(json "$E2E_TMP/$1.json" '[.summary.flows, .intervals[].flows] | map(select(
    .sessions_intended != .sessions_completed + .sessions_failed + .sessions_dropped + .sessions_unfinished)) | length')
  [[ $bad == 0 ]] || fail "$1: session conservation violated in $bad place(s)"
}
# auth JQ: one value of the lab's auth counters.
auth() { lab_query ".auth | $1"; }
