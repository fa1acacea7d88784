# Shared by the audit e2e tests that hold a corrected p99 against openloop's own open run (sourced after lib.sh).
# The caller defines lab(): starts the lab frozen the way the audited run's lab was.

# open_p99 RATE NAME: openloop's open run (AUDITED_RUN_S seconds, default 5: the audited runs' length) at RATE
# against a fresh lab(); sets
# OPEN_P99 (seconds). The comparison is of what users would have seen, so the generator must have sent on time: a
# try whose send lateness p99 is over 5 % of its response p99 (half the tolerance) is made again, up to 3 times; if
# every try was late, the machine is too busy for this comparison and the test is skipped (exit 77), as
# tests/e2e/slo/lib.sh does.
open_p99() {
  local attempt code late
  for attempt in 1 2 3; do
    code=0
    lab
    "$OPENLOOP" run "$LAB_URL/" --rate "$1/s" -d "${AUDITED_RUN_S:-5}s" --json "$E2E_TMP/$2.json" >"$E2E_TMP/$2.txt" || code=$?
    stop_lab
    # A busy host may send late; nothing else may make the run INVALID.
    accept_invalid_only_for "$code" "$E2E_TMP/$2.json" '^send lateness'
    assert_conserved "$E2E_TMP/$2.json"
    OPEN_P99=$(json "$E2E_TMP/$2.json" '.summary.response_time_ms.p99 / 1000')
    late=$(json "$E2E_TMP/$2.json" '.summary.send_lateness_ms.p99 / 1000')
    if awk -v l="$late" -v p="$OPEN_P99" 'BEGIN { exit !(l <= 0.05 * p) }'; then return 0; fi
    echo "  (attempt $attempt at $1/s: send lateness p99 $late s against p99 $OPEN_P99 s; trying again)"
  done
  echo "SKIP: openloop's own send lateness was over 5 % of its p99 in every try: the machine is too busy ($(uptime))"
  exit 77
}

# within_10pct ESTIMATE MEASURED WHAT: the audit's corrected p99 ESTIMATE within 10 % of openloop's MEASURED.
within_10pct() {
  assert_cmp "$(awk -v e="$1" -v m="$2" 'BEGIN { r = e / m; print (r > 1 ? r - 1 : 1 - r) }')" '<=' 0.10 \
    "$3: corrected p99 $1 s against openloop's $2 s"
}
