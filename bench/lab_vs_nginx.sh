#!/usr/bin/env bash
# lab_vs_nginx: `openloop lab --service 0` against nginx (one worker, small static body) under the same wrk
# command on loopback; prints requests/s of each and the ratio lab/nginx. Not a test: no assertion is made.
#
# usage: bench/lab_vs_nginx.sh [path/to/openloop]   (default: build/release/src/cli/openloop; build it Release)
# env:   BENCH_DURATION (10s) BENCH_THREADS (1) BENCH_CONNECTIONS (50) BENCH_ROUNDS (2: alternating, best kept)
set -euo pipefail
cd "$(dirname "$0")/.."
OPENLOOP=${1:-build/release/src/cli/openloop}
DURATION=${BENCH_DURATION:-10s}
THREADS=${BENCH_THREADS:-1}
CONNECTIONS=${BENCH_CONNECTIONS:-50}
ROUNDS=${BENCH_ROUNDS:-2}
for tool in wrk nginx; do command -v "$tool" >/dev/null || { echo "lab_vs_nginx: $tool is not installed" >&2; exit 2; }; done
[[ -x $OPENLOOP ]] || { echo "lab_vs_nginx: $OPENLOOP is not an executable (build the openloop target)" >&2; exit 2; }

TMP=$(mktemp -d)
LAB_PID=""
NGINX_PID=""
cleanup() {
  [[ -n $LAB_PID ]] && kill "$LAB_PID" 2>/dev/null || true
  [[ -n $NGINX_PID ]] && kill "$NGINX_PID" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT

free_port() {  # a loopback port no socket uses, below the ephemeral range (where outgoing connections take theirs)
  local port low
  low=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range)
  for _ in $(seq 50); do
    port=$((10000 + RANDOM % (low > 10001 ? low - 10000 : 20000)))
    ss -Htan "sport = :$port" | grep -q . || { echo "$port"; return; }
  done
  echo "lab_vs_nginx: no free port found" >&2
  exit 4
}

# The lab: service time 0, so it measures the HTTP path and the model's bookkeeping, not a timer.
"$OPENLOOP" lab --listen 127.0.0.1:0 --service 0 --workers 1 --body-size 3 >"$TMP/lab.out" 2>&1 &
LAB_PID=$!
for _ in $(seq 100); do grep -q '^lab listening on' "$TMP/lab.out" && break; sleep 0.05; done
LAB_URL="http://$(sed -n 's/^lab listening on //p' "$TMP/lab.out")/"

# nginx: one worker, a 3-byte body from memory, no access log, unlimited keep-alive requests (as the lab).
NGINX_PORT=$(free_port)
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
    listen 127.0.0.1:$NGINX_PORT;
    location / { default_type text/plain; return 200 "ok\n"; }
  }
}
CONF
nginx -p "$TMP/nginx" -c "$TMP/nginx/nginx.conf" -e "$TMP/nginx/logs/error.log" &
NGINX_PID=$!
NGINX_URL="http://127.0.0.1:$NGINX_PORT/"
for _ in $(seq 100); do curl -s -o /dev/null "$NGINX_URL" && break; sleep 0.05; done

WRK=(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION")
rate() { "${WRK[@]}" "$1" | awk '/^Requests\/sec:/ {print $2}'; }
best_lab=0
best_nginx=0
for round in $(seq "$ROUNDS"); do
  lab=$(rate "$LAB_URL")
  nginx=$(rate "$NGINX_URL")
  echo "round $round: lab $lab/s, nginx $nginx/s"
  best_lab=$(awk -v a="$best_lab" -v b="$lab" 'BEGIN { print (b > a ? b : a) }')
  best_nginx=$(awk -v a="$best_nginx" -v b="$nginx" 'BEGIN { print (b > a ? b : a) }')
done
echo "command: ${WRK[*]} URL   (machine: $(nproc) cores, shared by wrk and the server)"
printf 'lab (--service 0)   %12.0f requests/s\n' "$best_lab"
printf 'nginx (1 worker)    %12.0f requests/s\n' "$best_nginx"
awk -v a="$best_lab" -v b="$best_nginx" 'BEGIN { printf "ratio lab/nginx     %12.2f\n", a / b }'
