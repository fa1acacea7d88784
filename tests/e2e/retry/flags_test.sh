# Bad retry flags are refused before anything is sent (exit 2), each message naming the flag, the value and what is
# accepted; --help lists the retry flags.
# e2e: parallel-safe (no timing judged: see tests/e2e/CMakeLists.txt)
source "$OPENLOOP_E2E_LIB"
url=http://127.0.0.1:9/
refused() {  # refused EXPECTED_TEXT ARGS...
  local want=$1 code=0
  shift
  "$OPENLOOP" run "$url" --rate 10/s -d 1s "$@" >"$E2E_TMP/out" 2>"$E2E_TMP/err" || code=$?
  [[ $code == 2 ]] || fail "$* : exit $code, expected 2"
  grep -qF -- "$want" "$E2E_TMP/err" || fail "$* : message $(cat "$E2E_TMP/err"), expected to contain: $want"
}
refused '--retry-attempts: 0 is not accepted; use 1..100' --retry-attempts 0
refused '--retry-on: "404" in "5xx,404" is not accepted' --retry-attempts 2 --retry-on 5xx,404
refused '--per-try-timeout: 5s is not accepted; use a duration above 0 and below --timeout (5s)' --per-try-timeout 5s
refused '--backoff: "linear" is not accepted; use full, equal or decorrelated' --retry-attempts 2 --backoff linear
refused '--retry-budget: "ratio:abc" is not accepted' --retry-attempts 2 --retry-budget ratio:abc
refused '--retry-budget: "quota:500" needs --retry-attempts 2 or more' --retry-budget quota:500
refused '--send-deadline: "X Deadline" is not a header name' --send-deadline 'X Deadline'
"$OPENLOOP" run --help >"$E2E_TMP/help"
for flag in --retry-attempts --retry-on --per-try-timeout --backoff --backoff-base --backoff-max --honor-retry-after \
  --retry-budget --send-deadline; do
  grep -q -- "$flag" "$E2E_TMP/help" || fail "--help lacks $flag"
done
pass "bad retry flags refused with exit 2, naming flag and value"
