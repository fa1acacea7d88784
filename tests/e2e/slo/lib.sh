# Helpers for the SLO end-to-end tests: the common lib.sh plus a run that tolerates a busy machine.
# Sourced by tests/e2e/slo/*_test.sh (run by CTest as `bash SCRIPT path/to/openloop`).
# shellcheck shell=bash
source "${OPENLOOP_E2E_LIB:-$(dirname "${BASH_SOURCE[0]}")/../lib.sh}"

# run_openloop OUT ARGS...: runs `openloop ARGS` with stdout and stderr in OUT, sets CODE to its exit code and
# ELAPSED to its wall time (s). These tests check what SLOs do to the exit code, so a run that a busy machine made
# INVALID by the generator's own send lateness alone (exit 3, no other reason) is tried again, up to 3 times; if
# every try was, the test is skipped (exit 77): the machine is too busy to apply the load, nothing was learned.
run_openloop() {
  local out=$1 start attempt
  shift
  for attempt in 1 2 3; do
    CODE=0
    start=$(date +%s%N)
    "$OPENLOOP" "$@" >"$out" 2>&1 || CODE=$?
    ELAPSED=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
    [[ $CODE == 3 ]] || return 0
    # The arrival-process check fails with the lateness on a busy machine (sends bunched): the same cause.
    if grep -E '^  - ' "$out" | grep -qvE '^  - ((.*: )?send lateness|(.*: )?arrival process: )'; then return 0; fi
    echo "  (attempt $attempt: INVALID from the generator's own lateness on a busy machine; trying again)"
  done
  echo "SKIP: every run was INVALID from the generator's own send lateness: the machine is too busy ($(uptime)):"
  grep -E '^  - ' "$out"
  exit 77
}
