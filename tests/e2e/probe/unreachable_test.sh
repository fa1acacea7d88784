# A probe whose target cannot be reached measured nothing: exit 4 (runtime), as run and ramp do, not an
# INCONCLUSIVE verdict. Two ways: nothing listens on the port; a TLS server whose certificate does not verify
# (verification is on by default for the probe and the ramp, as for run).
# e2e: parallel-safe (exit codes against nothing or a bad certificate)
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
cd "$E2E_TMP"
port=$(free_port)  # nothing listens there
probe=(--base 20/s --trigger load:40/s --trigger-for 1s --baseline-for 2s --observe-for 2s --window 1s --warmup 0s
  --timeout 500ms --threads 1 -q)
code=0
"$OPENLOOP" probe metastable "http://127.0.0.1:$port/" "${probe[@]}" --json p.json >p.txt 2>p.err || code=$?
[[ $code == 4 ]] || fail "probe against a closed port: exit $code, expected 4: $(cat p.err)"
grep -qF "nothing listens at 127.0.0.1:$port (connection refused)" p.err ||
  fail "the message says nothing listens at the target: $(cat p.err)"
[[ -s p.json ]] || fail "the results are written all the same"
pass "probe against a closed port exits 4 naming it, with its results written"
require_tools nginx openssl
tls_port=$(free_port)
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost -addext subjectAltName=DNS:localhost \
  -keyout key.pem -out cert.pem 2>/dev/null
start_nginx "$tls_port" "ssl_certificate $E2E_TMP/cert.pem; ssl_certificate_key $E2E_TMP/key.pem;" ssl
code=0
"$OPENLOOP" probe metastable "https://localhost:$tls_port/" "${probe[@]}" >p.txt 2>p.err || code=$?
[[ $code == 4 ]] || fail "probe against an unverifiable certificate: exit $code, expected 4: $(cat p.err)"
code=0
"$OPENLOOP" ramp "https://localhost:$tls_port/" --from 20/s --hold 2s --warmup 0s --max-steps 1 --timeout 500ms \
  --threads 1 -q --json r.json >r.txt 2>r.err || code=$?
[[ $code == 4 ]] || fail "ramp against an unverifiable certificate: exit $code, expected 4: $(cat r.err)"
[[ $(jq '.runs[0].summary.counts.errors_by_kind.tls' r.json) -gt 0 ]] || fail "the ramp's errors are TLS errors"
pass "probe and ramp verify certificates by default: an unverifiable one is unreachable (exit 4)"
