# Bad ramp flags exit 2 with the flag named, before anything is sent.
# e2e: parallel-safe (no timing judged: see tests/e2e/CMakeLists.txt)
source "$OPENLOOP_E2E_LIB"
url=http://127.0.0.1:9/
expect_ramp_usage() {
  local want=$1
  shift
  local code=0
  "$OPENLOOP" ramp "$url" "$@" >"$E2E_TMP/out" 2>"$E2E_TMP/err" || code=$?
  [[ $code == 2 ]] || fail "ramp $*: exit $code, expected 2"
  grep -q -- "$want" "$E2E_TMP/err" || fail "ramp $*: message should name $want: $(cat "$E2E_TMP/err")"
}
expect_ramp_usage --hold --from 100/s --hold 1s
expect_ramp_usage --step-mult --from 100/s --step-mult 1.25 --step-add 10/s
expect_ramp_usage --step-mult --from 100/s --step-mult 0.9
expect_ramp_usage --deadline --from 100/s --deadline 2s --timeout 1s
expect_ramp_usage --to --from 100/s --to 50/s
expect_ramp_usage --tol --from 100/s --refine --tol 80%
expect_ramp_usage --stop-at --from 100/s --stop-at knee
expect_ramp_usage per-request --from 100/s --slo 'GET /:p99<=1s'
expect_ramp_usage --from --from 0/s
expect_ramp_usage '--step-until: needs --fresh' --from 100/s --step-until 'p99:±5%'
expect_ramp_usage '--step-max-hold: applies with --step-until' --from 100/s --fresh --step-max-hold 1m
expect_ramp_usage '--step-until: "p99"' --from 100/s --fresh --step-until p99
expect_ramp_usage '--step-max-hold: 5s is shorter than --hold 10s' --from 100/s --fresh --hold 10s \
  --step-until 'p99:±5%' --step-max-hold 5s
expect_ramp_usage '--repeat: needs --fresh' --from 100/s --repeat 3
expect_ramp_usage "--repeat: '1' is not a count of repeats: give a whole number from 2 to 100" --from 100/s \
  --fresh --repeat 1
expect_ramp_usage "--repeat: '101' is not a count" --from 100/s --fresh --repeat 101
expect_ramp_usage "--repeat: '99999' is not a count" --from 100/s --fresh --repeat 99999
expect_ramp_usage "--repeat: 'two' is not a count" --from 100/s --fresh --repeat two
pass "bad flags exit 2 naming the flag"
