#!/usr/bin/env bash
# e2e: parallel-safe (files only: no server, nothing sent)
# Gatling's simulation.log, JMeter's XML JTL and k6's CSV, each recognised by `openloop audit` with no --format:
# the same closed loop of 4 senders (10 ms per request, the server stalled from 4 s to 5 s) written in each format
# as docs/audit.md cites it is found closed, with the feedback and a corrected p99 far above the recorded one.
# Gatling 3.4+'s layout (no user id) shows the feedback but corrects nothing, and says why; a binary log (3.13+)
# and a truncated record are refused or named. Vegeta's CSV gives its own send lateness.
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
cd "$E2E_TMP"

# thread start_ms end_ms, per thread, from an epoch of 1.7e12 ms (printed with %.0f: mawk's %d stops at 2^31).
awk 'BEGIN {
  for (k = 0; k < 4; k++) {
    t = int(k * 10 / 4)
    while (t < 10000) { e = t + 10; if (t < 5000 && e > 4000 && e < 5000) e = 5000; print k + 1, t, e; t = e }
  }
}' | sort -n -k3 >samples.txt
epoch=1700000000000
awk -v E=$epoch 'BEGIN { printf "RUN\tsynthetic.Simulation\tsynthetic\t%.0f\t \t3.3.1\n", E }
  { printf "REQUEST\t%d\t\thome\t%.0f\t%.0f\tOK\t \n", $1, E + $2, E + $3 }' samples.txt >gatling33.log
awk -v E=$epoch 'BEGIN { printf "RUN\tsynthetic.Simulation\tsynthetic\t%.0f\t \t3.9.5\n", E }
  { printf "REQUEST\t\thome\t%.0f\t%.0f\tOK\t \n", E + $2, E + $3 }' samples.txt >gatling39.log
awk -v E=$epoch 'BEGIN { print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"; print "<testResults version=\"1.2\">" }
  { printf "<httpSample t=\"%d\" lt=\"1\" ts=\"%.0f\" s=\"true\" lb=\"home\" rc=\"200\" tn=\"Users 1-%d\"/>\n", $3 - $2, E + $2, $1 }
  END { print "</testResults>" }' samples.txt >jmeter.xml
awk -v E=$epoch 'BEGIN { print "metric_name,timestamp,metric_value,expected_response,name,scenario,status,extra_tags,metadata" }
  { printf "http_reqs,%.0f,1.000000,true,home,default,200,,vu=%d&iter=0\n", E + $3, $1
    printf "http_req_duration,%.0f,%.6f,true,home,default,200,,vu=%d&iter=0\n", E + $3, $3 - $2, $1 }' samples.txt >k6.csv

for f in gatling33.log:Gatling jmeter.xml:JMeter k6.csv:k6; do
  file=${f%%:*} tool=${f#*:}
  "$OPENLOOP" audit "$file" --json "$file.json" -q || fail "audit $file: exit $?"
  [[ $(json "$file.json" .tool) == "$tool" ]] || fail "$file: tool $(json "$file.json" .tool), expected $tool"
  [[ $(json "$file.json" .model.model) == closed ]] || fail "$file: model $(json "$file.json" .model.model)"
  [[ $(json "$file.json" .model.senders) == 4 ]] || fail "$file: senders $(json "$file.json" .model.senders)"
  [[ $(json "$file.json" .feedback.seen) == true ]] || fail "$file: no feedback: $(json "$file.json" .feedback.sentence)"
  [[ $(json "$file.json" .omission.applicable) == true ]] || fail "$file: not corrected: $(json "$file.json" .omission.why)"
  assert_cmp "$(json "$file.json" .omission.corrected.p99_s)" ">" 0.5 "$file: corrected p99 (s)"
  assert_cmp "$(json "$file.json" .omission.uncorrected.p99_s)" "<" 0.02 "$file: recorded p99 (s)"
  pass "$file: recognised as $tool; closed, 4 senders, feedback seen, p99 $(json "$file.json" .omission.uncorrected.p99_s) s corrected to $(json "$file.json" .omission.corrected.p99_s) s"
done

"$OPENLOOP" audit gatling39.log --json g39.json -q || fail "audit gatling39.log: exit $?"
[[ $(json g39.json .model.model) == unknown ]] || fail "gatling 3.9: model $(json g39.json .model.model)"
[[ $(json g39.json .omission.applicable) == false ]] || fail "gatling 3.9: corrected without user ids"
[[ $(json g39.json .feedback.seen) == true ]] || fail "gatling 3.9: no feedback"
jq -e '.limits | map(select(test("no user id"))) | length == 1' g39.json >/dev/null || fail "gatling 3.9: limit not said"
pass "Gatling 3.4+ (no user id): feedback seen, nothing corrected, the limit said"

# A truncated REQUEST is named with its line and missing fields; the rest is read.
{ head -50 gatling39.log; printf 'REQUEST\t\thome\t1700000000500\n'; tail -n +51 gatling39.log; } >cut.log
"$OPENLOOP" audit cut.log --json cut.json -q || fail "audit cut.log: exit $?"
[[ $(json cut.json .records) == $(json g39.json .records) ]] || fail "cut.log: records $(json cut.json .records)"
json cut.json .bad_lines.first | grep -qF "cut.log:51: a REQUEST record with 4 of the 7" || fail "cut.log: $(json cut.json .bad_lines.first)"
json cut.json .bad_lines.first | grep -qF "missing: end, status, message" || fail "cut.log: missing fields not named"
pass "a truncated Gatling record is named (line 51, its missing fields), the rest audited"

printf '\0\0\0\0053.13.1\0' >binary.log
set +e
"$OPENLOOP" audit binary.log >binary.out 2>&1
code=$?
set -e
[[ $code == 2 ]] || fail "binary log: exit $code"
grep -qF "binary simulation.log (Gatling 3.13" binary.out || fail "binary log: $(cat binary.out)"
pass "a binary simulation.log (Gatling 3.13+) is refused by name, exit 2"

# Vegeta's CSV (vegeta encode --to csv: timestamp ns, code, latency ns, bytes out, bytes in, error, body, attack,
# seq, method, url, headers): 500/s for 6 s, sends 1000-1149 (due 2.0-2.298 s) held back to 2.3 s by a stalled
# worker pool. The audit rebuilds the 500/s schedule from seq and finds those sends late; the verdict says so.
awk 'BEGIN { E = 1700000000; for (n = 0; n < 3000; n++) { due = n * 2; t = (n >= 1000 && n < 1150) ? 2300 : due
  printf "%d%03d%06d,200,2000000,0,2,,,,%d,GET,http://127.0.0.1:8080/,\n", E + int(t / 1000), t % 1000, 0, n } }' >vegeta.csv
"$OPENLOOP" audit vegeta.csv --json vegeta.json -q || fail "audit vegeta.csv: exit $?"
[[ $(json vegeta.json .tool) == Vegeta ]] || fail "vegeta.csv: tool $(json vegeta.json .tool)"
[[ $(json vegeta.json .send_lateness.applicable) == true ]] || fail "vegeta.csv: $(json vegeta.json .send_lateness.why)"
assert_cmp "$(json vegeta.json .send_lateness.rate_per_s)" ">" 499.99 "vegeta.csv: fitted rate"
assert_cmp "$(json vegeta.json .send_lateness.rate_per_s)" "<" 500.01 "vegeta.csv: fitted rate"
[[ $(json vegeta.json .send_lateness.late_over_interval) == 149 ]] ||
  fail "vegeta.csv: late over an interval $(json vegeta.json .send_lateness.late_over_interval), expected 149"
assert_cmp "$(json vegeta.json .send_lateness.lateness.max_s)" ">" 0.299 "vegeta.csv: the first held send's lateness"
json vegeta.json .verdict | grep -qF "Vegeta itself sent p99" || fail "vegeta.csv: verdict $(json vegeta.json .verdict)"
pass "vegeta.csv: its 500/s schedule rebuilt from seq; 149 sends over one interval late, max $(json vegeta.json .send_lateness.lateness.max_s) s"
