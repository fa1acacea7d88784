# lib.sh: helpers for end-to-end tests. Source it; pass the openloop binary as $1 to the test script.
# Everything started here is killed on exit; every wait is bounded.
set -euo pipefail

OPENLOOP=${1:?usage: $0 path/to/openloop}
E2E_TMP=$(mktemp -d /tmp/openloop-e2e.XXXXXX)
E2E_PIDS=()

e2e_cleanup() {
  local pid
  for pid in "${E2E_PIDS[@]:-}"; do
    [[ -n $pid ]] || continue
    kill -CONT "$pid" 2>/dev/null || true
    kill -TERM "$pid" 2>/dev/null || true
  done
  sleep 0.1
  for pid in "${E2E_PIDS[@]:-}"; do [[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null || true; done
  if [[ -f $E2E_TMP/nginx.pid ]]; then kill -KILL "$(cat "$E2E_TMP/nginx.pid")" 2>/dev/null || true; fi
  pkill -KILL -f "$E2E_TMP" 2>/dev/null || true
  rm -rf "$E2E_TMP"
}
trap e2e_cleanup EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "ok: $*"; }

# free_port: prints a TCP port on 127.0.0.1 that was free a moment ago.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# wait_port PORT [SECONDS]: waits until something listens on 127.0.0.1:PORT.
wait_port() {
  local port=$1 deadline=$((SECONDS + ${2:-10}))
  while ((SECONDS < deadline)); do
    if (echo >/dev/tcp/127.0.0.1/"$port") 2>/dev/null; then return 0; fi
    sleep 0.05
  done
  fail "nothing listening on 127.0.0.1:$port after ${2:-10}s"
}

# start_nginx PORT [EXTRA_SERVER_CONFIG] [LISTEN_SUFFIX]: one worker, serving "ok" on / ; sets NGINX_MASTER.
start_nginx() {
  local port=$1 extra=${2:-} listen_suffix=${3:-}
  mkdir -p "$E2E_TMP/nginx"
  cat >"$E2E_TMP/nginx/nginx.conf" <<CONF
daemon off;
worker_processes 1;
pid $E2E_TMP/nginx.pid;
error_log $E2E_TMP/nginx/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 1000000;
  client_body_temp_path $E2E_TMP/nginx;
  proxy_temp_path $E2E_TMP/nginx;
  fastcgi_temp_path $E2E_TMP/nginx;
  uwsgi_temp_path $E2E_TMP/nginx;
  scgi_temp_path $E2E_TMP/nginx;
  server {
    listen 127.0.0.1:$port $listen_suffix;
    $extra
    location / { return 200 "ok\n"; }
  }
}
CONF
  nginx -p "$E2E_TMP/nginx" -c "$E2E_TMP/nginx/nginx.conf" -e "$E2E_TMP/nginx/error.log" &
  NGINX_MASTER=$!
  E2E_PIDS+=("$NGINX_MASTER")
  wait_port "$port"
}

# nginx_worker_pid: the (single) worker process of the nginx started by start_nginx.
nginx_worker_pid() { pgrep -P "$NGINX_MASTER" | head -n1; }

# json FILE JQ_EXPR: prints a value from a results file.
json() { jq -r "$2" "$1"; }

# assert_cmp A OP B MESSAGE: numeric comparison with awk (floats allowed).
assert_cmp() {
  awk -v a="$1" -v b="$3" -v op="$2" 'BEGIN {
    ok = (op == "<") ? a < b : (op == "<=") ? a <= b : (op == ">") ? a > b : (op == ">=") ? a >= b : (op == "==") ? a == b : 0;
    exit ok ? 0 : 1 }' || fail "$4 (got $1, expected $2 $3)"
}

# assert_conserved FILE: intended = completed + timeouts + errors + dropped + unfinished, in total and per interval.
assert_conserved() {
  local bad
  bad=$(jq '[.summary.counts, .intervals[].counts] | map(select(.intended != .completed + .timeouts + .errors + .dropped + .unfinished)) | length' "$1")
  [[ $bad == 0 ]] || fail "conservation violated in $bad place(s) of $1"
}

# start_lab ARGS...: starts `openloop lab` on a free loopback port with ARGS; sets LAB_URL (http://127.0.0.1:PORT).
start_lab() {
  # Empty the files first: the child truncates them only after the fork (a second lab would read the first's port).
  : >"$E2E_TMP/lab.out"
  : >"$E2E_TMP/lab.err"
  "$OPENLOOP" lab --listen 127.0.0.1:0 "$@" >"$E2E_TMP/lab.out" 2>"$E2E_TMP/lab.err" &
  E2E_PIDS+=($!)
  local port=
  for _ in $(seq 100); do
    # The background shell may not have created lab.out yet: sed fails then, which set -e must not take as fatal.
    port=$(sed -n 's/^lab listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$E2E_TMP/lab.out" 2>/dev/null || true)
    [[ -n $port ]] && break
    sleep 0.05
  done
  [[ -n $port ]] || fail "the lab did not start: $(cat "$E2E_TMP/lab.err")"
  LAB_URL=http://127.0.0.1:$port
}
