#!/usr/bin/env bash
# engine_cost: the generator's CPU per request of two openloop binaries, side by side in one session, at the same
# open-model rate against one nginx worker on loopback (rounds alternate A, B, A, B; each run's worker thread CPU
# from its results file, generator.cpu_s − generator.spin_s, over the requests it sent). Not a test: it prints.
#
# usage: bench/engine_cost.sh BEFORE AFTER     (two openloop executables, e.g. main's and a branch's)
# env:   COST_RATE (20000/s) COST_DURATION (20s) COST_ROUNDS (3) COST_SPIN_BELOW (0: always sleep, the default
#        spin would count polling as CPU)
set -euo pipefail
cd "$(dirname "$0")/.."
A=${1:?usage: bench/engine_cost.sh BEFORE AFTER}
B=${2:?usage: bench/engine_cost.sh BEFORE AFTER}
RATE=${COST_RATE:-20000/s}
DURATION=${COST_DURATION:-20s}
ROUNDS=${COST_ROUNDS:-3}
SPIN=${COST_SPIN_BELOW:-0}
for bin in "$A" "$B"; do [[ -x $bin ]] || { echo "engine_cost: $bin is not an executable" >&2; exit 2; }; done
command -v nginx >/dev/null || { echo "engine_cost: nginx is not installed" >&2; exit 2; }

TMP=$(mktemp -d)
NGINX_PID=""
cleanup() {
  [[ -n $NGINX_PID ]] && kill "$NGINX_PID" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT
low=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range)
PORT=$((10000 + RANDOM % (low > 10001 ? low - 10000 : 20000)))
mkdir -p "$TMP/nginx/logs"
cat >"$TMP/nginx/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $TMP/nginx/nginx.pid;
error_log $TMP/nginx/logs/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 1000000;
  client_body_temp_path $TMP/nginx/body;
  proxy_temp_path $TMP/nginx/proxy;
  fastcgi_temp_path $TMP/nginx/fastcgi;
  uwsgi_temp_path $TMP/nginx/uwsgi;
  scgi_temp_path $TMP/nginx/scgi;
  server {
    listen 127.0.0.1:$PORT;
    location / { default_type text/plain; return 200 "ok\n"; }
  }
}
CONF
nginx -p "$TMP/nginx" -c "$TMP/nginx/nginx.conf" -e "$TMP/nginx/logs/error.log" &
NGINX_PID=$!
URL="http://127.0.0.1:$PORT/"
for _ in $(seq 100); do curl -s -o /dev/null "$URL" && break; sleep 0.05; done

cost() {  # BINARY OUT: prints µs of worker CPU per request sent
  "$1" run "$URL" --rate "$RATE" -d "$DURATION" --threads 1 --spin-below "$SPIN" --quiet --json "$2" --no-html \
    >/dev/null 2>&1 || true
  jq -r '((.generator.cpu_s - .generator.spin_s) / .summary.counts.sent * 1e6)' "$2"
}
sum_a=0
sum_b=0
for round in $(seq "$ROUNDS"); do
  a=$(cost "$A" "$TMP/a.json")
  b=$(cost "$B" "$TMP/b.json")
  printf 'round %d: before %.2f µs/request, after %.2f µs/request (load %s)\n' "$round" "$a" "$b" \
    "$(cut -d' ' -f1 /proc/loadavg)"
  sum_a=$(awk -v s="$sum_a" -v x="$a" 'BEGIN { print s + x }')
  sum_b=$(awk -v s="$sum_b" -v x="$b" 'BEGIN { print s + x }')
done
echo "command: openloop run $URL --rate $RATE -d $DURATION --threads 1 --spin-below $SPIN (nginx, 1 worker)"
awk -v a="$sum_a" -v b="$sum_b" -v n="$ROUNDS" \
  'BEGIN { printf "mean CPU per request: before %.2f µs, after %.2f µs, after/before %.3f\n", a / n, b / n, b / a }'
