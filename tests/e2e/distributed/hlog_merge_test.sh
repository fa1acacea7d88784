# Interval logs of shards merge like their results files: 2 shards started together (--start-at), each writing
# --json and --hlog; `merge s0.hlog s1.hlog -o m.hlog` and `merge s0.json s1.json --hlog mj.hlog` reach the same
# intervals by two paths (every data line equal). A log among results files, and logs started further apart than
# --max-skew, are refused (exit 2).
# e2e: light (interval logs merged two ways must be equal; nothing timed)
source "$OPENLOOP_E2E_LIB"
start_lab --workers 64 --service 1ms
start_at=$(date -u -d '+2 seconds' +%Y-%m-%dT%H:%M:%SZ)
pids=()
for i in 0 1; do
  "$OPENLOOP" run "$LAB_URL/" --rate 300/s --duration 2s --threads 1 --shard "$i/2" --start-at "$start_at" \
    --run-id e2e-hlog --quiet --no-html --json "$E2E_TMP/s$i.json" --hlog "$E2E_TMP/s$i.hlog" >/dev/null 2>&1 &
  pids+=($!)
done
for i in 0 1; do
  set +e
  wait "${pids[$i]}"
  code=$?
  set -e
  accept_invalid_only_for "$code" "$E2E_TMP/s$i.json" '^send lateness'
done

"$OPENLOOP" merge "$E2E_TMP/s0.hlog" "$E2E_TMP/s1.hlog" -o "$E2E_TMP/m.hlog" 2>"$E2E_TMP/merge.err" ||
  fail "merging the shards' logs failed: $(cat "$E2E_TMP/merge.err")"
set +e
"$OPENLOOP" merge "$E2E_TMP/s0.json" "$E2E_TMP/s1.json" -o "$E2E_TMP/m.json" --hlog "$E2E_TMP/mj.hlog" -q
code=$?
set -e
[[ $code == 0 || $code == 3 ]] || fail "merging the shards' results exited $code"
lines=$(grep -vc '^[#"]' "$E2E_TMP/m.hlog")
# Five tags: the three latencies and the lab's Server-Timing (server-reported, outside the server).
tags=$(grep -o '^Tag=[a-z_]*' "$E2E_TMP/m.hlog" | sort -u | wc -l)
[[ $tags == 5 && $lines == 10 ]] || fail "the merged log has $lines histograms of $tags tags, expected 10 (2 intervals x 5)"
diff <(grep -v '^#' "$E2E_TMP/m.hlog") <(grep -v '^#' "$E2E_TMP/mj.hlog") >/dev/null ||
  fail "the logs merged directly differ from the merged results' log"
grep -q '^#\[StartTime: ' "$E2E_TMP/m.hlog" || fail "the merged log has no StartTime"
pass "2 shards' .hlog merged = the merged results' .hlog ($lines histograms)"

set +e
"$OPENLOOP" merge "$E2E_TMP/s0.hlog" "$E2E_TMP/s1.json" -o "$E2E_TMP/z" 2>"$E2E_TMP/mixed.err"
code=$?
set -e
[[ $code == 2 ]] || fail "a log among results files exited $code, expected 2"
grep -q 's0.hlog is an interval log among results files' "$E2E_TMP/mixed.err" || fail "$(cat "$E2E_TMP/mixed.err")"
# The same log shifted 3 s later: further apart than --max-skew 1s.
awk '/^#\[(StartTime|BaseTime): / { sub(/: [0-9.]+/, sprintf(": %.3f", $2 + 3)) } { print }' "$E2E_TMP/s1.hlog" \
  >"$E2E_TMP/late.hlog"
set +e
"$OPENLOOP" merge "$E2E_TMP/s0.hlog" "$E2E_TMP/late.hlog" -o "$E2E_TMP/z.hlog" 2>"$E2E_TMP/skew.err"
code=$?
set -e
[[ $code == 2 ]] || fail "logs 3 s apart exited $code, expected 2"
grep -q 'late.hlog started 3.000s after .*s0.hlog' "$E2E_TMP/skew.err" || fail "$(cat "$E2E_TMP/skew.err")"
[[ ! -e $E2E_TMP/z.hlog ]] || fail "a refused merge wrote its output"
pass "refused: a log among results files, logs 3 s apart (exit 2)"
