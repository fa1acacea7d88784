# A refused connection and a name that does not resolve: the run says so and exits 4 (runtime failure), on time.
# e2e: parallel-safe (exit codes against nothing and an unresolvable name)
source "$OPENLOOP_E2E_LIB"
source "$(dirname "$0")/hostile_lib.sh"
port=$(free_port)  # nothing listens there
hostile_run refused "http://127.0.0.1:$port/"
[[ $CODE == 4 ]] || fail "refused: exit $CODE, expected 4 (unreachable): $(cat "$E2E_TMP/refused.err")"
expect_errors refused connect
grep -q 'every request failed to connect' "$E2E_TMP/refused.err" || fail "refused: stderr: $(cat "$E2E_TMP/refused.err")"

# .invalid never resolves (RFC 6761). One try of at most 1 s per server, so a resolver that does not answer is bounded
# too.
export RES_OPTIONS="timeout:1 attempts:1"
hostile_run dns "http://openloop-e2e.invalid:8080/"
[[ $CODE == 4 ]] || fail "dns: exit $CODE, expected 4: $(cat "$E2E_TMP/dns.err")"
grep -q "cannot resolve host 'openloop-e2e.invalid'" "$E2E_TMP/dns.err" || fail "dns: stderr: $(cat "$E2E_TMP/dns.err")"
[[ ! -e $E2E_TMP/dns.json ]] || fail "dns: nothing was sent, yet a results file was written"
pass "unresolvable name refused before anything was sent ($(cat "$E2E_TMP/dns.err"))"
