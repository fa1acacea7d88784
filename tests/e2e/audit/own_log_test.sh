#!/usr/bin/env bash
# openloop's own closed loop (--vus 6 --think 8ms, 5 s) against the lab frozen once for 500 ms, its request log
# written out as JMeter's CSV JTL, a Gatling 3.3 simulation.log and k6's --out json: the audit of each finds the
# closed model with 6 senders, and its corrected p99 is within 10 % of openloop's open run at the rate the audit's
# honest run names (issue 31: "the audit's corrected percentiles agree with openloop's open run of the same plan").
# (4 users for 8 s until stop 45: 6 users log about as many requests in 5 s as 4 did in 8, above the 1,000
# required.)
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
require_tools jq

lab() { start_lab --workers 10 --service 2ms --stall-at 2500ms+500ms; }  # as against_open_test.sh
source "$(dirname "$0")/against_open_lib.sh"
lab
"$OPENLOOP" run "$LAB_URL/" --vus 6 --think 8ms -d 5s --log-requests "$E2E_TMP/log.jsonl" \
  --json "$E2E_TMP/closed.json" >"$E2E_TMP/closed.txt" || fail "closed run exit $?: $(cat "$E2E_TMP/closed.txt")"
stop_lab
rows=$(wc -l <"$E2E_TMP/log.jsonl")
assert_cmp "$rows" '>' 1000 "the closed loop logged its requests ($rows)"
# Each virtual user has its own connection ("THREAD.INDEX"): the sender's name in every format.
user='(.connection | split(".") | (.[0] | tonumber) * 1000 + (.[1] | tonumber) + 1)'
ms='((. * 1000) | floor)'
jq -r -s --arg h 'timeStamp,elapsed,label,responseCode,threadName,success' \
  "\$h, (.[] | select(.warmup | not) | [(.sent_s | $ms), (.response_ms | round), \"home\", .status,
   \"users 1-\\($user)\", (.outcome == \"ok\")] | @csv)" "$E2E_TMP/log.jsonl" | tr -d '"' >"$E2E_TMP/own.jtl"
{
  printf 'RUN\town.Simulation\town\t%s\t \t3.3.1\n' "$(jq -s ".[0].sent_s | $ms" "$E2E_TMP/log.jsonl")"
  jq -r "select(.warmup | not) | [\"REQUEST\", $user, \"\", \"home\", (.sent_s | $ms),
    (.sent_s + .response_ms / 1000 | $ms), \"OK\", \" \"] | @tsv" "$E2E_TMP/log.jsonl"
} >"$E2E_TMP/simulation.log"
# k6 stamps an HTTP sample at its response's end, RFC 3339 with a fraction of a second.
jq -c "select(.warmup | not) | {type: \"Point\", metric: \"http_req_duration\", data: {time:
  ((.sent_s + .response_ms / 1000) as \$e | (\$e | floor | todate | sub(\"Z\$\"; \"\"))
   + \".\" + ((\$e - (\$e | floor)) * 1e6 | floor | tostring | (\"000000\" + .)[-6:]) + \"Z\"),
  value: .response_ms, tags: {vu: ($user | tostring), iter: \"0\", status: (.status | tostring)}}}" \
  "$E2E_TMP/log.jsonl" >"$E2E_TMP/k6.json"

audit() {  # audit FILE TOOL: the closed model with 6 senders; sets COR (the corrected p99, s) and RATE
  "$OPENLOOP" audit "$E2E_TMP/$1" --json "$E2E_TMP/$1.audit.json" >"$E2E_TMP/$1.audit.txt" ||
    fail "audit of $1 exit $?: $(cat "$E2E_TMP/$1.audit.txt")"
  local a=$E2E_TMP/$1.audit.json
  [[ $(json "$a" .tool) == "$2" ]] || fail "$1: tool $(json "$a" .tool), expected $2"
  [[ $(json "$a" .model.model) == closed ]] || fail "$1: model $(json "$a" .model.model): $(json "$a" .model.evidence)"
  [[ $(json "$a" .model.senders) == 6 ]] || fail "$1: $(json "$a" .model.senders) senders, expected the 6 users"
  [[ $(json "$a" .omission.applicable) == true ]] || fail "$1: not corrected: $(json "$a" .omission.why)"
  COR=$(json "$a" .omission.corrected.p99_s)
  RATE=$(json "$a" .honest_run.rate_per_s)
  pass "$2: closed, 6 senders, p99 $(json "$a" .omission.uncorrected.p99_s) s as recorded, $COR s corrected"
}
audit own.jtl JMeter
jmeter=$COR rate=$RATE
audit simulation.log Gatling
gatling=$COR
audit k6.json k6
k6=$COR
assert_cmp "$rate" ">" 100 "the honest rate (6 users at 2 ms + 8 ms: at most 600/s)"
open_p99 "$(printf '%.0f' "$rate")" open
within_10pct "$jmeter" "$OPEN_P99" JMeter
within_10pct "$gatling" "$OPEN_P99" Gatling
within_10pct "$k6" "$OPEN_P99" k6
pass "corrected p99 JMeter $jmeter s, Gatling $gatling s, k6 $k6 s; openloop open at $rate/s: $OPEN_P99 s"
