# Plan files take ${VAR} / ${VAR:-default} from -e and the environment (-e wins), refuse an unset variable naming
# file:line:column, keep $${ literal, and --target sends a plan to another scheme://host:port with its paths kept;
# validate takes the same flags.
# e2e: parallel-safe (what reached the server; bad input)
source "$OPENLOOP_E2E_LIB"
source "$(dirname "${BASH_SOURCE[0]}")/inputs_lib.sh"
cd "$E2E_TMP"
unset TARGET ITEM RATE
start_capture

cat >plan.yaml <<'PLAN'
target: ${TARGET}
requests:
  get: GET /api/item/${ITEM:-7}?price=$${not-substituted}
scenarios:
  s: {model: open, rate: "${RATE:-20/s}", duration: 1s, request: get}
PLAN

# The environment names a host nothing listens on (loopback, so nothing leaves the machine); -e wins over it.
TARGET=http://127.0.0.2:9 RATE=10/s run_applied env.json plan.yaml -e "TARGET=$CAPTURE_URL" --threads 1
assert_cmp "$(json env.json .summary.counts.intended)" == 10 "RATE from the environment: 10/s for 1 s"
assert_cmp "$(json env.json .summary.counts.ok)" == 10 "every request reached the -e target"
[[ $(jq -r .path "$CAPTURE_LOG" | sort -u) == '/api/item/7?price=${not-substituted}' ]] ||
  fail "the default and the \$\${ escape: $(jq -r .path "$CAPTURE_LOG" | sort -u)"
pass "-e wins over the environment; defaults and \$\${ apply"

expect_usage_of run 'plan.yaml:1:9: ${TARGET}: the variable TARGET is not set; set it in the environment or with -e TARGET=VALUE' \
  plan.yaml
expect_usage_of run "-e 'TARGET': no '=' found" plan.yaml -e TARGET
expect_usage_of validate 'plan.yaml:1:9: ${TARGET}: the variable TARGET is not set' plan.yaml
"$OPENLOOP" validate plan.yaml -e TARGET=http://127.0.0.1:1 -e ITEM=9 >v.txt || fail "validate with -e: $(cat v.txt)"
grep -q 'target http://127.0.0.1:1,' v.txt || fail "validate shows the substituted target: $(cat v.txt)"

# --target: the file's host is replaced, its base path and the requests' paths kept.
cat >based.yaml <<'PLAN'
target: http://127.0.0.2:9/base
requests: {get: GET /item/1}
scenarios: {s: {model: open, rate: 10/s, duration: 1s, request: get}}
PLAN
: >"$CAPTURE_LOG"
run_applied target.json based.yaml --target "$CAPTURE_URL" --threads 1
assert_cmp "$(json target.json .summary.counts.ok)" == 10 "every request went to --target"
[[ $(jq -r .path "$CAPTURE_LOG" | sort -u) == /base/item/1 ]] || fail "paths kept: $(jq -r .path "$CAPTURE_LOG" | sort -u)"
[[ $(jq -r '.headers.host' "$CAPTURE_LOG" | sort -u) == "${CAPTURE_URL#http://}" ]] || fail "Host header of --target"
"$OPENLOOP" validate based.yaml --target https://127.0.0.1:8443 >v.txt || fail "validate --target: $(cat v.txt)"
grep -q 'target https://127.0.0.1:8443/base,' v.txt || fail "validate shows the new target: $(cat v.txt)"
expect_usage_of run "--target 'http://127.0.0.1:1/x': give only scheme://host[:port]" based.yaml --target http://127.0.0.1:1/x
expect_usage_of run '--target: applies to a plan file or --targets' "$CAPTURE_URL/" --target "$CAPTURE_URL" --rate 1/s
pass "--target points a plan at another host, paths kept"
