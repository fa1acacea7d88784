# retry_lib.sh: helpers shared by the retry e2e tests (sourced after tests/e2e/lib.sh).
# shellcheck shell=bash

# run_checked NAME ARGS...: `openloop run ARGS --slo none --json $E2E_TMP/NAME.json`, summary in $E2E_TMP/NAME.txt.
# These runs inject failures on purpose and check the retry counts, so they measure without judging the target (no
# default goodput SLO). Exit 0 is required, except that on a loaded machine the generator's own send lateness may
# pass its bound: exit 3 is accepted only when that is the sole reason.
run_checked() {
  local name=$1 code=0
  shift
  "$OPENLOOP" run "$@" --slo none --json "$E2E_TMP/$name.json" >"$E2E_TMP/$name.txt" 2>"$E2E_TMP/$name.err" || code=$?
  if [[ $code == 3 ]]; then
    only_schedule_reasons "$E2E_TMP/$name.json" ||
      fail "$name: INVALID: $(jq -c .verdict.reasons "$E2E_TMP/$name.json")"
    echo "note: $name INVALID on send lateness only ($(uptime))"
  elif [[ $code != 0 ]]; then
    fail "$name: exit $code: $(cat "$E2E_TMP/$name.err" "$E2E_TMP/$name.txt")"
  fi
  assert_conserved "$E2E_TMP/$name.json"
}

# lab_stat FIELD: a counter of the lab started by start_lab, from /_lab/stats.
lab_stat() { lab_query ".$1"; }

# counts NAME: one line of the logical and attempt counts of a run, for the test's log.
counts() {
  jq -c '.summary.counts | {intended, sent, ok, completed, timeouts, errors, attempts, retries, retry_budget_denied,
    amplification: (.amplification * 1000 | round / 1000)}' "$E2E_TMP/$1.json"
}
