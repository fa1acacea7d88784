# `openloop report` re-renders a results file without re-running: text is the summary `run` printed, json re-emits
# the file, csv has one row per interval and one for the whole run; bad input (truncated JSON, a bad .hlog line, unknown format) exits 2 with
# the file and line named, and writes nothing.
# e2e: parallel-safe (formats and bad input)
source "$OPENLOOP_E2E_LIB"
port=$(free_port)
start_nginx "$port"
cd "$E2E_TMP"
code=0
"$OPENLOOP" run "http://127.0.0.1:$port/" --rate 200/s --duration 2s --threads 1 --json r.json --hlog r.hlog \
  >run.txt 2>run.err || code=$?
accept_invalid_only_for "$code" r.json '^send lateness'  # the generator's own lateness on a busy box

"$OPENLOOP" report r.json >text.txt || fail "report text exit $?"
cmp -s run.txt text.txt || fail "report text differs from the run's summary: $(diff run.txt text.txt | head)"
"$OPENLOOP" report r.json --format json -o re.json || fail "report json exit $?"
[[ "$(jq -S . r.json)" == "$(jq -S . re.json)" ]] || fail "json re-emit differs"
"$OPENLOOP" report r.json -f csv -o r.csv || fail "report csv exit $?"
assert_cmp "$(wc -l <r.csv)" == "$(($(json r.json '.intervals | length') + 2))" \
  "csv: header + one row per interval + the whole run"
head -1 r.csv | grep -q '^scope,interval,start_unix_s,start_s,length_s,intended,sent,completed,ok,timeouts,errors,dropped,' ||
  fail "csv header: $(head -1 r.csv)"
assert_cmp "$(awk -F, '$1 == "total" && $2 != "all" { s += $6 } END { print s }' r.csv)" == \
  "$(json r.json .summary.counts.intended)" "csv intended column sums to the total"
assert_cmp "$(awk -F, '$1 == "total" && $2 == "all" { print $6 }' r.csv)" == "$(json r.json .summary.counts.intended)" \
  "csv: the whole run's row"
"$OPENLOOP" report r.hlog >hlog.txt || fail "report of an .hlog exit $?"
grep -q 'latency histograms only' hlog.txt || fail "hlog text says what it lacks"
"$OPENLOOP" report r.hlog --format csv | head -1 | grep -q '^scope,interval,start_unix_s,start_s,length_s,response_time_count,' ||
  fail "hlog csv header"

expect_bad() {  # expect_bad WANT OUTPUT ARGS...: exit 2, WANT in stderr, OUTPUT not created
  local want=$1 out=$2; shift 2
  local rc=0
  "$OPENLOOP" "$@" >/dev/null 2>err.txt || rc=$?
  [[ $rc == 2 ]] || fail "'$*' exit $rc, expected 2 ($(cat err.txt))"
  grep -qF -- "$want" err.txt || fail "'$*': message lacks '$want': $(cat err.txt)"
  [[ -z $out || ! -e $out ]] || fail "'$*' wrote $out despite the error"
}
head -c 3000 r.json >cut.json
expect_bad "cut.json:" out.txt report cut.json -o out.txt
grep -q 'truncated or corrupted JSON' err.txt || fail "truncation named: $(cat err.txt)"
jq '.intervals[1].histograms.response_time = "HISTFAAAAgarbage"' r.json >corrupt.json
expect_bad "corrupt.json: /intervals/1/histograms/response_time: not an HdrHistogram" out.txt report corrupt.json -o out.txt
awk 'NR == 8 { $0 = "Tag=response_time,1.000,1.000,oops,HISTFAAAA" } { print }' r.hlog >bad.hlog
expect_bad "bad.hlog:8: expected a number for max" out.html report bad.hlog -f html -o out.html
expect_bad '--format: "pdf" is not a format' "" report r.json --format pdf
expect_bad "needs a results JSON" "" report r.hlog --format json
expect_bad "/nonexistent/r.json" "" report /nonexistent/r.json
expect_bad "--hlog: the directory of" "" run "http://127.0.0.1:$port/" --rate 10/s -d 1s --hlog /nonexistent/dir/r.hlog
pass "report formats, and bad input refused with file and line"
