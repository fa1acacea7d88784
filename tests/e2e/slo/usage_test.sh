# Bad SLOs exit 2 before anything is sent, quoting the SLO and listing what is accepted; so does an SLO naming a
# request the plan does not have, and --abort-on-slo without an SLO.
# e2e: parallel-safe (no timing judged: see tests/e2e/CMakeLists.txt)
source "$(dirname "$0")/lib.sh"
url=http://127.0.0.1:9/
expect_usage '--slo "p99=200ms": no comparison' $url --rate 10 --slo 'p99=200ms'
expect_usage 'accepted: p99<=200ms' $url --rate 10 --slo 'latency<1s'
expect_usage '"0.1" is not a percentage' $url --rate 10 --slo 'errors<=0.1'
expect_usage '--slo "checkout:p99<=1s": the plan has no request named "checkout" (its requests: "GET /")' \
  $url --rate 10 --slo 'checkout:p99<=1s'
expect_usage '--abort-on-slo: needs at least one --slo' $url --rate 10 --abort-on-slo
pass "bad SLOs rejected with exit 2"
