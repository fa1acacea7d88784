# Bad flags: exit 2, a message naming the flag, the value and what is accepted; nothing is sent.
# e2e: parallel-safe (no timing judged: see tests/e2e/CMakeLists.txt)
source "$OPENLOOP_E2E_LIB"
expect_usage '--rate: "abc" is not a rate; use e.g. 500/s, 30000/m' http://127.0.0.1:9/ --rate abc
expect_usage '--duration: "10" is not a duration' http://127.0.0.1:9/ --rate 10 --duration 10
expect_usage '--arrival' http://127.0.0.1:9/ --rate 10 --arrival bursty
expect_usage '--on-saturation: "wait" is not accepted; use drop or queue' http://127.0.0.1:9/ --rate 10 --on-saturation wait
expect_usage 'URL' ftp://127.0.0.1/ --rate 10
expect_usage 'give 1 to 1048576 streams per connection' http://127.0.0.1:9/ --rate 10 --http2 --max-streams 0
expect_usage 'give 1 to 1048576 streams per connection' http://127.0.0.1:9/ --rate 10 --http2 --max-streams 2000000
expect_usage 'exactly one of --rate' http://127.0.0.1:9/
grep -q '^openloop run: run:' "$E2E_TMP/out.txt" && fail "the subcommand is named twice: $(cat "$E2E_TMP/out.txt")"
# A typo names the option meant; an option of another subcommand says whose it is.
expect_usage 'openloop run: unknown option --rat; did you mean --rate?' http://127.0.0.1:9/ --rat 100/s
expect_usage 'openloop run: unknown option --duraton; did you mean --duration?' http://127.0.0.1:9/ --rate 10 --duraton=5s
expect_usage 'openloop run: --lab is an option of simulate' http://127.0.0.1:9/ --rate 10 --lab '--workers 1'
expect_usage "'Name: value'" http://127.0.0.1:9/ --rate 10 -H 'no-colon'
expect_usage '--success' http://127.0.0.1:9/ --rate 10 --success 2xx
expect_usage '--spin-below: "20ms" is more than 10ms; use auto, 0 or a wait such as 20us' http://127.0.0.1:9/ --rate 10 --spin-below 20ms
expect_usage '--spin-below: "soon" is not a duration' http://127.0.0.1:9/ --rate 10 --spin-below soon
expect_usage '--nope' http://127.0.0.1:9/ --rate 10 --nope
pass "bad input rejected with exit 2"
