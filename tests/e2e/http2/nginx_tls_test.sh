#!/usr/bin/env bash
# ALPN against real nginx over TLS: `--protocol auto` offers h2 and http/1.1; a listener with http2 chooses h2, one
# without it http/1.1, and the results say which was used (generator.protocol, connections_by_protocol, the summary),
# as nginx's own access log ($server_protocol) confirms. `--protocol h2` against the HTTP/1.1-only listener fails
# fast (its ALPN offers only h2, which nginx refuses), every request a tls error naming ALPN's failure and what to use
# instead (--protocol auto, or h1), none waiting for its timeout.
# e2e: light (the protocol ALPN chose, counts at 50-200/s)
source "$OPENLOOP_E2E_LIB"
require_tools nginx openssl jq
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$E2E_TMP/key.pem" -out "$E2E_TMP/cert.pem" -days 1 \
  -subj /CN=localhost >/dev/null 2>&1
h2port=$(free_port)
h1port=$(free_port)
[[ $h1port != "$h2port" ]] || h1port=$(free_port)
start_nginx "$h2port" "listen 127.0.0.1:$h1port ssl; ssl_certificate $E2E_TMP/cert.pem;
    ssl_certificate_key $E2E_TMP/key.pem; access_log $E2E_TMP/nginx/access.log proto;" "ssl http2" \
  'log_format proto "$server_port $server_protocol";'
wait_port "$h1port"

# run_auto PORT OUT.json: 2 s at 200/s over https with the default protocol (auto).
run_auto() {
  local code=0
  "$OPENLOOP" run "https://127.0.0.1:$1/" --insecure --rate 200/s --duration 2s --threads 1 --json "$2" >"$2.txt" 2>&1 ||
    code=$?
  accept_invalid_only_for "$code" "$2" '^send lateness'
  assert_conserved "$2"
  assert_cmp "$(json "$2" .summary.counts.ok)" == "$(json "$2" .summary.counts.intended)" "$2: every request ok"
  [[ $(json "$2" .plan.protocol) == auto ]] || fail "$2: the plan says $(json "$2" .plan.protocol), not auto"
}

r=$E2E_TMP/h2.json
run_auto "$h2port" "$r"
[[ $(json "$r" .generator.protocol) == h2 ]] || fail "ALPN chose h2 at nginx's http2 listener, got $(json "$r" .generator.protocol)"
assert_cmp "$(json "$r" .generator.connections_by_protocol.h2)" ">=" 1 "h2 connections counted"
assert_cmp "$(json "$r" .generator.connections_by_protocol.h1)" == 0 "no HTTP/1.1 connection"
grep -q 'protocol h2' "$r.txt" || fail "the summary names h2: $(cat "$r.txt")"
assert_cmp "$(grep -c "^$h2port HTTP/2.0$" "$E2E_TMP/nginx/access.log")" == "$(json "$r" .summary.counts.intended)" \
  "nginx served each request over HTTP/2.0"
pass "auto over TLS at an http2 listener: h2 ($(json "$r" .generator.connections_by_protocol.h2) connections)"

r=$E2E_TMP/h1.json
run_auto "$h1port" "$r"
[[ $(json "$r" .generator.protocol) == h1 ]] || fail "ALPN chose http/1.1 at nginx's plain listener, got $(json "$r" .generator.protocol)"
assert_cmp "$(json "$r" .generator.connections_by_protocol.h1)" ">=" 1 "HTTP/1.1 connections counted"
assert_cmp "$(json "$r" .generator.connections_by_protocol.h2)" == 0 "no h2 connection"
grep -q 'protocol h1' "$r.txt" || fail "the summary names h1: $(cat "$r.txt")"
assert_cmp "$(grep -c "^$h1port HTTP/1.1$" "$E2E_TMP/nginx/access.log")" == "$(json "$r" .summary.counts.intended)" \
  "nginx served each request over HTTP/1.1"
pass "auto over TLS at a listener without http2: http/1.1, and the results say so"

# --protocol h2 where the server offers only http/1.1: the TLS handshake fails on ALPN, at once, for every request.
r=$E2E_TMP/h2only.json
code=0
timeout 30 "$OPENLOOP" run "https://127.0.0.1:$h1port/" --insecure --protocol h2 --rate 50/s --duration 1s --timeout 2s \
  --threads 1 --slo none --json "$r" >"$r.txt" 2>&1 || code=$?
[[ $code != 0 && $code != 124 ]] || fail "h2 against an http/1.1-only TLS server must fail, and not hang (exit $code)"
assert_conserved "$r"
assert_cmp "$(json "$r" .summary.counts.completed)" == 0 "nothing completed"
assert_cmp "$(json "$r" .summary.counts.timeouts)" == 0 "no request waited for its timeout"
# Arrivals while the one connection is mid-handshake find no slot and are dropped; every other one is a tls error.
errors=$(json "$r" .summary.counts.errors)
assert_cmp "$errors" ">=" 1 "the handshake failed"
assert_cmp $((errors + $(json "$r" .summary.counts.dropped))) == "$(json "$r" .summary.counts.intended)" \
  "every request an error (or dropped while a handshake was failing)"
assert_cmp "$(json "$r" .summary.counts.errors_by_kind.tls)" == "$errors" "every error of kind tls"
json "$r" .summary.error_examples.tls | grep -qF 'no application protocol' ||
  fail "the tls example names ALPN's failure: $(json_or_null "$r" .summary.error_examples.tls)"
json "$r" .summary.error_examples.tls | grep -qF 'use --protocol auto to let it choose, or --protocol h1' ||
  fail "the tls example says what to use instead: $(json_or_null "$r" .summary.error_examples.tls)"
pass "--protocol h2 at an http/1.1-only TLS server: exit $code, $(json "$r" .summary.error_examples.tls)"
