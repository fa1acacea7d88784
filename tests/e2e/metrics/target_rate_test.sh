# openloop_target_rate follows the plan: a --stages run at 100/s for 2 s, then a step to 300/s for 2 s, scraped
# while it goes and during --metrics-linger. While the latest finalized interval is in the first stage the gauge
# is 100, once it is in the second 300 (the plan's mean over the latest interval: the step falls on an interval
# boundary, so no scrape shows anything else); openloop_target_rate_peak is 300 throughout.
source "$OPENLOOP_E2E_LIB"
require_tools curl
cd "$E2E_TMP"
start_lab --workers 50 --service 1ms

port=$(free_port)
"$OPENLOOP" run "$LAB_URL/" --stages 0s:100/s,2s:100/s,0s:300/s,2s:300/s --warmup 0s -q --json r.json \
  --metrics-listen "127.0.0.1:$port" --metrics-linger 20s >run.txt 2>&1 &
pid=$!
E2E_PIDS+=("$pid")
value() { awk -v n="$1" 'index($0, n "{") == 1 {print $2; exit}' "$2"; }
seen=""
for i in $(seq 300); do  # ≤ 30 s: the run lasts 4 s, then lingers
  curl -sf --max-time 2 "http://127.0.0.1:$port/metrics" >"m$i.txt" 2>/dev/null || { sleep 0.1; continue; }
  reports=$(value openloop_progress_reports "m$i.txt")
  rate=$(value openloop_target_rate "m$i.txt")
  peak=$(value openloop_target_rate_peak "m$i.txt")
  [[ $peak == 300 ]] || fail "peak gauge $peak, expected 300: $(grep target_rate "m$i.txt")"
  if [[ ${reports:-0} != 0 ]]; then
    [[ $rate == 100 || $rate == 300 ]] || fail "target rate $rate after $reports reports: neither stage's rate"
    [[ ${seen: -3} == "$rate" ]] || seen="$seen $rate"
  fi
  [[ -s r.json ]] && break
  sleep 0.1
done
[[ -s r.json ]] || fail "no r.json within 30 s: $(cat run.txt)"
curl -sf --max-time 2 "http://127.0.0.1:$port/metrics" >final.txt || fail "no scrape during the linger"
kill -TERM "$pid"
wait "$pid" || true
[[ $(value openloop_target_rate final.txt) == 300 ]] || fail "final target rate $(value openloop_target_rate final.txt)"
[[ $seen == " 100 300" ]] || fail "target rate seen in order:$seen (expected 100 then 300)"
pass "target rate 100 then 300 as the plan steps up; peak 300 throughout"
