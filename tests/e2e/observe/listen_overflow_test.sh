#!/usr/bin/env bash
# nginx with a listen backlog of 2 and its worker stopped for a second while openloop opens new connections:
# the accept queue overflows, the host's ListenOverflows rises in those intervals and the summary names it.
# Skipped where the kernel (or this network namespace) does not count it.
# e2e: light (listen overflows forced by a stopped nginx worker, counted by the kernel)
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
require_tools jq nginx timeout
port=$(free_port)
start_nginx "$port" "keepalive_timeout 0;" "backlog=2"
worker=$(nginx_worker_pid)
[[ -n $worker ]] || fail "no nginx worker"
before=$(awk '/^TcpExt:/ { if (!h) { for (i = 1; i <= NF; i++) n[i] = $i; h = 1 } else for (i = 1; i <= NF; i++) if (n[i] == "ListenOverflows") print $i }' /proc/net/netstat)
[[ -n $before ]] || { echo "SKIP: /proc/net/netstat has no ListenOverflows"; exit 77; }
cd "$E2E_TMP"
# The worker stops accepting from 1 s to 2 s into the 3 s run (4 s until stop 47: the overflows are counted while
# it is stopped, and a second after it is enough for the held connections to be served); every request opens a new
# connection.
( sleep 1.2; kill -STOP "$worker"; sleep 1; kill -CONT "$worker" ) &
E2E_PIDS+=("$!")
code=0
# --slo none: the stall fails the default goodput SLO by design (exit 1 when the run is VALID); this test is about
# the observation, not the target's service level.
timeout 40 "$OPENLOOP" run "http://127.0.0.1:$port/" --rate 400/s --duration 3s --timeout 2s -t 1 -q --max-lateness 100ms \
  --slo none --observe host --observe "pid:$worker" --json r.json --no-html >out.txt 2>err.txt || code=$?
kill -CONT "$worker" 2>/dev/null || true
after=$(awk '/^TcpExt:/ { if (!h) { for (i = 1; i <= NF; i++) n[i] = $i; h = 1 } else for (i = 1; i <= NF; i++) if (n[i] == "ListenOverflows") print $i }' /proc/net/netstat)
((after > before)) || { echo "SKIP: the kernel did not count listen overflows here ($before → $after)"; exit 77; }
# While the worker is stopped the full accept queue holds new connections back, so fewer than 99 % may be sent
# (INVALID for that, or for the generator's own lateness on a loaded machine); any other reason fails the test.
[[ $code == 0 || $code == 3 ]] || fail "exit $code: $(cat err.txt)"
accept_invalid_only_for "$code" r.json '^sent [0-9]+ of [0-9]+ intended requests' '^dropped ' 'send lateness' '^generator CPU '
max=$(jq -r '.summary.observed.signals[] | select(.source == "host" and .name == "ListenOverflows") | .max' r.json)
assert_cmp "$max" ">" 0 "ListenOverflows per second rose in some interval (kernel counted $((after - before)))"
# The intervals' overflows (rate × 1 s) are part of what the kernel counted between before and after (the
# counter is the namespace's: other processes may add to it, never take away).
sum=$(jq '[.intervals[].observed.host.ListenOverflows // 0] | add' r.json)
assert_cmp "$sum" "<=" "$((after - before)).5" "the intervals hold no more overflows than the kernel counted"
grep -q 'listen queue overflows' out.txt || fail "the summary names listen queue overflows: $(cat out.txt)"
pass "ListenOverflows rose (max $max/s) and is named in the summary"
