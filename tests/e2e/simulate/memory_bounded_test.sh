# A run's memory does not grow with its length (issue 11, "Soak"): finished intervals are parked whole in a spill
# file and the results JSON is written one interval at a time. In virtual time, a 6-hour run at 1/s with 1-s
# intervals (21,600 intervals) must peak within 8 MB of a 1-hour run's (3,600): before parking whole intervals,
# each cost about 3 KB resident (the interval record, 1.3 KB, in a vector that doubles, plus its share of the
# JSON document), so the 6-hour run peaked about 60 MB higher. 8 MB leaves room for allocator noise and for what
# is legitimately proportional to the length: 16 bytes of index per parked interval (0.3 MB here).
# e2e: parallel-safe (virtual time; each process's own peak memory)
source "$OPENLOOP_E2E_LIB"
require_tools /usr/bin/time
url=http://127.0.0.1:9/  # only a label: nothing is sent

peak_kb() { # DURATION JSON: prints the peak RSS (KB) of a simulated run writing JSON
  /usr/bin/time -f '%M' -o "$2.time" "$OPENLOOP" simulate "$url" --rate 1/s -d "$1" --seed 3 --quiet \
    --json "$2" --no-html --lab '--workers 1 --service exp:1ms' >/dev/null ||
    fail "simulate -d $1 failed (exit $?)"
  tail -n1 "$2.time"
}
# The two runs at once (one per core): each process's peak is its own, whatever runs beside it.
peak_kb 1h "$E2E_TMP/short.json" >"$E2E_TMP/short.kb" &
short_pid=$!
long=$(peak_kb 6h "$E2E_TMP/long.json")
wait "$short_pid" || fail "the 1-hour run failed"
short=$(cat "$E2E_TMP/short.kb")
echo "peak RSS: 1 h ${short} KB, 6 h ${long} KB"
# The 6-hour file (50 MB) is read once: its intervals, those that do not conserve (as assert_conserved counts them),
# the intervals' intended total and the summary's.
read -r intervals unconserved added summary < <(jq -r '[(.intervals | length),
  ([.summary.counts, .intervals[].counts] | '"$E2E_JQ_UNCONSERVED"'),
  ([.intervals[].counts.intended] | add), .summary.counts.intended] | @tsv' "$E2E_TMP/long.json")
assert_cmp "$intervals" == 21600 "every interval of the 6-hour run written"
assert_cmp "$unconserved" == 0 "conservation in total and per interval of the 6-hour run"
assert_cmp "$added" == "$summary" "the intervals add up to the summary"
check "$long - $short <= 8192" "a 6-hour run peaks within 8 MB of a 1-hour run (1 h: ${short} KB, 6 h: ${long} KB)"
