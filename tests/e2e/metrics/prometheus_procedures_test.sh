# ramp and the lab scraped by a real Prometheus (Debian's, on a loopback port, every second, native histograms on):
# after a two-step ramp against the lab with --metrics-listen on both, Prometheus's per-step counters (label step)
# equal the ramp file's steps[].counts, and its lab counters equal the lab's /_lab/stats once the lab is idle.
# Skipped (77) only when prometheus is absent.
source "$OPENLOOP_E2E_LIB"
PROMETHEUS=${OPENLOOP_PROMETHEUS:-prometheus}
require_tools "$PROMETHEUS" jq curl
cd "$E2E_TMP"

lport=$(free_port)
start_lab --workers 50 --service 2ms --metrics-listen "127.0.0.1:$lport"
mport=$(free_port)
start_prometheus openloop="127.0.0.1:$mport" lab="127.0.0.1:$lport"
api=$PROMETHEUS_API

code=0
"$OPENLOOP" ramp "$LAB_URL/" --from 100/s --step-add 100/s --to 200/s --hold 2s --warmup 1s --stop-at never \
  --threads 1 --max-lateness 50ms -q --json r.json --metrics-listen "127.0.0.1:$mport" --metrics-linger 4s \
  >ramp.txt 2>&1 || code=$?
# 1.5 s before the ramp exited: inside --metrics-linger, after the final state was scraped at least once.
during=$(awk -v now="$(date +%s.%N)" 'BEGIN { printf "%.3f", now - 1.5 }')
[[ $code == 0 || $code == 3 ]] || fail "ramp exit $code: $(cat ramp.txt)"
query() {
  curl -sf --max-time 5 --data-urlencode "query=$1" --data-urlencode "time=$2" "$api/api/v1/query" |
    jq -r '.data.result[0].value[1] // "none"'
}
for i in 0 1; do
  n=$(jq ".steps[$i].number" r.json)
  for counter in intended sent ok; do
    got=$(query "openloop_requests_${counter}_total{job=\"openloop\",step=\"$n\",request=\"\"}" "$during")
    want=$(jq ".steps[$i].counts.$counter" r.json)
    [[ $got == "$want" ]] || fail "step $n: $counter: Prometheus has $got, the ramp file $want"
  done
done
[[ $(query 'openloop_ramp_finished{job="openloop"}' "$during") == 1 ]] || fail "ramp not finished in Prometheus"
pass "Prometheus's per-step counters equal the ramp file's"

# The lab is idle now: its counters in Prometheus equal /_lab/stats once Prometheus has scraped it since (polled
# every 0.25 s for up to 5 s, five scrapes; a fixed 2.5-s wait until stop 47).
stats=$(curl -sS --max-time 5 "$LAB_URL/_lab/stats")
for _ in $(seq 20); do
  sleep 0.25
  now=$(date +%s.%N)
  differ=
  for counter in arrivals ok shed expired; do
    got=$(query "openloop_lab_${counter}_total{job=\"lab\"}" "$now")
    want=$(jq ".$counter" <<<"$stats")
    [[ $got == "$want" ]] || differ="lab $counter: Prometheus has $got, /_lab/stats $want"
  done
  [[ -z $differ ]] && break
done
[[ -z $differ ]] || fail "$differ (after 5 s)"
assert_cmp "$(jq .arrivals <<<"$stats")" ">=" "$(jq '[.steps[].counts.sent] | add' r.json)" "the lab saw the steps' requests"
pass "Prometheus's lab counters equal /_lab/stats ($(jq .arrivals <<<"$stats") arrivals)"
