#!/usr/bin/env bash
# h2_vs_h2load: openloop over HTTP/2 beside h2load against the same nghttpd (h2c, prior knowledge), one line each:
# a closed loop (1 connection x 100 streams; h2load -c1 -m100) and an open rate (openloop --rate R against h2load
# --rps R on one connection), with nghttpd stopped for STALL_MS once mid-run so the open runs show how each
# measures a stall: openloop from each request's intended time, h2load from when it submitted the stream.
# Usage: bench/h2_vs_h2load.sh OPENLOOP   (env: SECS=5, RATE=2000, STALL_MS=300)
# Traffic only to 127.0.0.1; every run is bounded.
set -euo pipefail
OPENLOOP=${1:?usage: bench/h2_vs_h2load.sh OPENLOOP}
SECS=${SECS:-5} RATE=${RATE:-2000} STALL_MS=${STALL_MS:-300}
export OPENLOOP_E2E_LIB=$(dirname "$0")/../tests/e2e/lib.sh
source "$OPENLOOP_E2E_LIB" "$OPENLOOP"
require_tools nghttpd h2load jq
www=$E2E_TMP/www && mkdir -p "$www" && printf 'hello\n' >"$www/index.html"
port=$(free_port)
nghttpd --no-tls -d "$www" "$port" >/dev/null 2>&1 &
srv=$!
E2E_PIDS+=($srv)
wait_port "$port"
url=http://127.0.0.1:$port/index.html
stall() { sleep "$(awk -v s="$SECS" 'BEGIN{print s/2}')"; kill -STOP "$srv"; sleep "$(awk -v m="$STALL_MS" 'BEGIN{print m/1000}')"; kill -CONT "$srv"; }

echo "closed loop, 1 connection x 100 streams, ${SECS}s:"
"$OPENLOOP" run "$url" --http2 --vus 100 --connections 1 --duration "${SECS}s" --threads 1 --slo none \
  --json "$E2E_TMP/closed.json" >/dev/null || true
echo "  openloop: $(json "$E2E_TMP/closed.json" '.summary.throughput_rps // .summary.counts.completed') (completed/s or count)"
h2load -c1 -m100 -D "$SECS" "$url" 2>/dev/null | grep -E '^finished in|^requests:' | sed 's/^/  h2load:   /'

echo "open rate ${RATE}/s on one connection, ${SECS}s, nghttpd stopped ${STALL_MS} ms at half time:"
stall & s=$!
"$OPENLOOP" run "$url" --http2 --rate "${RATE}/s" --connections 1 --duration "${SECS}s" --threads 1 --slo none \
  --json "$E2E_TMP/open.json" >/dev/null || true
wait "$s"
echo "  openloop: p50 $(json "$E2E_TMP/open.json" .summary.response_time_ms.p50) ms, p99 $(json "$E2E_TMP/open.json" .summary.response_time_ms.p99) ms, max $(json "$E2E_TMP/open.json" .summary.response_time_ms.max) ms (from intended times)"
stall & s=$!
h2load -c1 -m100 --rps "$RATE" -D "$SECS" "$url" 2>/dev/null | grep -E '^time for request|^requests:|^finished in' | sed 's/^/  h2load:   /'
wait "$s"
