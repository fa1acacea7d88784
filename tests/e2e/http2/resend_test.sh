#!/usr/bin/env bash
# Streams the server never processed are sent again outside the retry budget: the lab's GOAWAY after every 50
# streams and its REFUSED_STREAM above a stream bound (real nginx's GOAWAY every 50 requests: nginx_goaway_test.sh).
# No request is lost, none is processed twice (the lab's arrivals equal the completed requests), every refusal is
# either resent or the request's error, and counts are conserved.
source "$OPENLOOP_E2E_LIB"
require_tools curl jq

# h2_stats JQ_FILTER: one value from the HTTP/2 lab's /_lab/stats (curl with prior knowledge).
h2_stats() {
  curl -sS --http2-prior-knowledge --max-time 5 "$LAB_URL/_lab/stats" | strict_jq "$LAB_URL/_lab/stats" "$1"
}

# run_h2 OUT.json URL FLAGS...: an open-model run over h2c; a busy host may send late, nothing else may be INVALID.
run_h2() {
  local out=$1 url=$2 code=0
  shift 2
  "$OPENLOOP" run "$url" --http2 --threads 1 --json "$out" "$@" >"$out.txt" 2>&1 || code=$?
  accept_invalid_only_for "$code" "$out" '^send lateness'
}

# GOAWAY after every 50 streams: the streams above each GOAWAY's last stream id are resent on a new connection.
start_lab --http2 --service 5ms --workers 100 --goaway-after 50
r=$E2E_TMP/goaway.json
# Poisson at 4000/s: about a third of the GOAWAYs find the next stream already on its way (gaps under the
# GOAWAY's round trip), so resends happen on a quiet host too (at 1000/s constant they happened only under load).
run_h2 "$r" "$LAB_URL/" --rate 4000/s --arrival poisson --duration 3s
assert_conserved "$r"
intended=$(json "$r" .summary.counts.intended)
assert_cmp "$(json "$r" .summary.counts.ok)" == "$intended" "GOAWAY every 50 streams: every request ok"
assert_cmp "$(json "$r" .summary.counts.errors)" == 0 "no request failed"
resent=$(json "$r" .summary.counts.resent)
assert_cmp "$resent" ">" 0 "streams above a GOAWAY's last stream id were resent"
assert_cmp "$(json "$r" .summary.counts.retries)" == 0 "resends are not retries"
assert_cmp "$(json "$r" .summary.counts.attempts)" == $((intended + resent)) "attempts = sent + resent"
assert_cmp "$(json "$r" '[.intervals[].counts.resent] | add')" == "$resent" "intervals' resent add up"
assert_cmp "$(h2_stats .arrivals)" == "$intended" "the lab processed each request exactly once"
goaways=$(h2_stats .http2.goaways)
assert_cmp "$goaways" ">=" $((intended / 50 - 1)) "a GOAWAY every 50 streams"
assert_cmp "$(json "$r" .generator.connections_by_protocol.h2)" ">=" "$goaways" "a new connection after each GOAWAY"
grep -qE "^resent +$resent " "$r.txt" || fail "the summary names $resent resent: $(cat "$r.txt")"
pass "GOAWAY x $goaways: $intended requests ok, $resent resent on new connections, none processed twice"
stop_lab

# REFUSED_STREAM above 4 open streams while the SETTINGS allow 100, at 400/s of 5 ms requests (2 open on average,
# Poisson bursts above 4; the lab serves 800/s): refused streams are resent (waiting longer each
# time it is refused again); each refusal is a resend or, past the resend bound, the request's reset error.
# How many end there depends on the host, not on openloop: a CPU-starved generator sends its late arrivals in
# bunches far past 4 streams (and a starved lab holds its 4 longer), so refusals outrun the resends' 0.5 s of
# waits (37 of 1200 on a loaded CI host; 168 of 1217 on a host where the generator waited for a CPU half the
# time: "at least 99 % ok" measured the host). What holds whatever the load: no
# request completes with a bad status or fails any other way than by the refusal (the example naming it), each
# of those only after all 10 of its resends (fewer only if the lab took seconds of the 5 s timeout to refuse),
# and every refusal is counted once.
start_lab --http2 --service 5ms --workers 100 --refuse-streams-above 4
r=$E2E_TMP/refused.json
run_h2 "$r" "$LAB_URL/" --rate 400/s --duration 3s --arrival poisson
assert_conserved "$r"
intended=$(json "$r" .summary.counts.intended)
resent=$(json "$r" .summary.counts.resent)
resets=$(json "$r" .summary.counts.errors_by_kind.reset)
refused=$(h2_stats .http2.refused)
assert_cmp "$resent" ">" 0 "refused streams were resent"
assert_cmp "$refused" == $((resent + resets)) "every refusal was resent or ended its request"
assert_cmp "$(h2_stats .arrivals)" == "$(json "$r" .summary.counts.completed)" "processed once each"
assert_cmp "$(json "$r" .summary.counts.errors)" == "$resets" "the refusal is the only error"
assert_cmp "$(json "$r" .summary.counts.ok)" == "$(json "$r" .summary.counts.completed)" "every response ok"
assert_cmp "$resent" ">=" $((10 * resets)) "a request ends as the refusal only after its 10 resends"
if ((resets > 0)); then
  json "$r" .summary.error_examples.reset | grep -qF "refused the stream (RST_STREAM REFUSED_STREAM" ||
    fail "the resets' example does not name the refusal: $(json_or_null "$r" .summary.error_examples.reset)"
fi
pass "refused above 4 streams: $refused refusals, $resent resent, $resets ended as reset, of $intended"
stop_lab

