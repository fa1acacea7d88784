# lib.sh: helpers for end-to-end tests: free ports, nginx, the lab (start, stop, query), assertions, cleanup.
# Source it; pass the openloop binary as $1 to the test script. Everything started here is killed on exit; every
# wait is bounded.
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
  # Up to 100 ms for them to exit on SIGTERM (polled every 5 ms; a fixed 100-ms sleep until stop 46), then SIGKILL.
  for _ in {1..20}; do
    e2e_any_alive || break
    sleep 0.005
  done
  for pid in "${E2E_PIDS[@]:-}"; do [[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null || true; done
  if [[ -f $E2E_TMP/nginx.pid ]]; then kill -KILL "$(cat "$E2E_TMP/nginx.pid")" 2>/dev/null || true; fi
  pkill -KILL -f "$E2E_TMP" 2>/dev/null || true
  rm -rf "$E2E_TMP"
}
trap e2e_cleanup EXIT

# e2e_any_alive: true while a process of E2E_PIDS still exists.
e2e_any_alive() {
  local pid
  for pid in "${E2E_PIDS[@]:-}"; do [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null && return 0; done
  return 1
}

# fail MESSAGE: ends the test; the last lab's stderr (if any) follows the message.
fail() {
  echo "FAIL: $*" >&2
  if [[ -s $E2E_TMP/lab.err ]]; then sed 's/^/  lab stderr: /' "$E2E_TMP/lab.err" >&2; fi
  exit 1
}
pass() { echo "ok: $*"; }

# is_number VALUE: true when VALUE is a decimal number as jq, awk or date print one: an optional sign, digits with an
# optional fraction (or a fraction alone), an optional exponent ("42", "-0.5", ".5", "1e+30", "2.5E-05"). "null",
# an empty string, "nan", "inf" and hexadecimal are not.
is_number() { [[ $1 =~ ^[-+]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][-+]?[0-9]+)?$ ]]; }

# check CONDITION DESCRIPTION: evaluates an awk condition ("$rate > 1000") and passes or fails with DESCRIPTION.
# The condition may hold numbers, operators and parentheses only: a word in it (e.g. "null" from a missing JSON
# field, which awk would read as an unset variable, 0) fails the test instead of being compared, and so does a
# missing operand (awk's syntax error).
check() {
  local cond=$1 words
  shift
  words=$(sed -E 's/([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][-+]?[0-9]+)?//g' <<<"$cond" | grep -oE '[A-Za-z_]+' | tr '\n' ' ' ||
    true)
  [[ -z $words ]] || fail "$* (condition '$cond' holds a non-number: $words)"
  awk "BEGIN { exit !($cond) }" || fail "$* (condition: $cond)"
  pass "$*"
}

# require_tools TOOL...: skips the test (exit 77, which CTest reports as skipped) when a tool it needs is missing.
require_tools() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed (scripts/install-deps)"; exit 77; }
  done
}

# free_port: prints a TCP port on 127.0.0.1 that was free a moment ago: a random port below the kernel's ephemeral
# range (ip_local_port_range), so no outgoing connection takes it meanwhile, that no socket in /proc/net/tcp{,6}
# holds. Plain bash: a python3 per port cost 0.3-2 s where python3 is a pyenv shim. Where the range leaves no room
# below it, the kernel picks one (bind to port 0, in python3).
free_port() {
  local low _high line port used=" "
  read -r low _high </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || low=0
  if ((low < 12000)); then
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
    return
  fi
  while read -r _ line _; do
    [[ $line == *:* ]] && used+="$((16#${line##*:})) "
  done < <(cat /proc/net/tcp /proc/net/tcp6 2>/dev/null)
  for _ in $(seq 100); do
    port=$((10000 + (RANDOM * 32768 + RANDOM) % (low - 10000)))
    [[ $used == *" $port "* ]] || { echo "$port"; return 0; }
  done
  fail "free_port: no free port below $low after 100 draws"
}

# wait_port PORT [SECONDS]: waits until something listens on 127.0.0.1:PORT (polled every 10 ms).
wait_port() {
  local port=$1 deadline=$((SECONDS + ${2:-10}))
  while ((SECONDS < deadline)); do
    if (echo >/dev/tcp/127.0.0.1/"$port") 2>/dev/null; then return 0; fi
    sleep 0.01
  done
  fail "nothing listening on 127.0.0.1:$port after ${2:-10}s"
}

# start_nginx PORT [EXTRA_SERVER_CONFIG] [LISTEN_SUFFIX] [EXTRA_HTTP_CONFIG]: one worker, serving "ok" on / ; sets
# NGINX_MASTER. EXTRA_HTTP_CONFIG goes in the http block (e.g. a log_format, which nginx takes only there).
start_nginx() {
  local port=$1 extra=${2:-} listen_suffix=${3:-} http_extra=${4:-}
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
  $http_extra
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

# start_nginx_h1_h2c_pinned: the benches' nginx, one worker pinned to core 0 (the generator goes on core 1), serving
# h2c on $port and HTTP/1.1 on $h1port (both set here, free and distinct).
start_nginx_h1_h2c_pinned() {
  h1port=$(free_port)
  port=$(free_port)
  [[ $port != "$h1port" ]] || port=$(free_port)
  start_nginx "$port" "listen 127.0.0.1:$h1port;" http2
  wait_port "$h1port"
  taskset -pc 0 "$(nginx_worker_pid)" >/dev/null
}

# freeze_periodically PID FIRST LEN PERIOD COUNT: in the background, stops PID (SIGSTOP) for LEN seconds every PERIOD
# seconds, COUNT times, the first FIRST seconds from now (seconds as sleep takes them: 0.5), and continues it after
# each stop. Sets FREEZER (its pid, to `wait` on); PID and FREEZER join E2E_PIDS, so a failing test never leaves PID
# stopped (the EXIT trap continues, then kills it). A stall injected on a wall clock, not a synchronisation.
freeze_periodically() {
  local pid=$1 first=$2 len=$3 period=$4 count=$5
  local gap
  gap=$(awk -v p="$period" -v l="$len" 'BEGIN { print p - l }')
  (
    sleep "$first"
    for ((i = 1; i <= count; i++)); do
      kill -STOP "$pid"
      sleep "$len"
      kill -CONT "$pid"
      ((i == count)) || sleep "$gap"
    done
  ) &
  FREEZER=$!
  E2E_PIDS+=("$pid" "$FREEZER")
}

# cpu_ticks CPU: "steal total" clock ticks of one CPU so far (/proc/stat); steal_pct BEFORE AFTER: the share of
# that CPU's time the hypervisor stole between two readings, in %. Benches pin a generator to a CPU and print it
# beside each run: on a shared VM the host's steal stalls a generator for milliseconds at a time.
cpu_ticks() { awk -v c="cpu$1" '$1 == c {print $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9}' /proc/stat; }
steal_pct() {
  awk -v a="$1" -v b="$2" 'BEGIN {split(a, x, " "); split(b, y, " "); t = y[2] - x[2];
    printf "%.1f", (t > 0 ? 100 * (y[1] - x[1]) / t : 0)}'
}

# with_thread PID NAME CMD...: runs CMD with the id of process PID's thread named NAME appended (openloop names its
# threads: openloop-w0…, openloop-coord, openloop-log; see core/thread_name.h), waiting up to 5 s for the thread
# to appear; fails if it does not. pin_thread PID NAME CPU: moves that thread to CPU.
with_thread() {
  local pid=$1 name=$2 i task
  shift 2
  for ((i = 0; i < 500; i++)); do
    for task in /proc/"$pid"/task/*; do
      [[ $(cat "$task/comm" 2>/dev/null) == "$name" ]] && { "$@" "${task##*/}"; return; }
    done
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.01
  done
  return 1
}
pin_thread() { with_thread "$1" "$2" taskset -pc "$3" >/dev/null; }

# A value the test reads that is not there ends the whole test (fail_missing), wherever it was read: in the script,
# in a $(...) inside a comparison ([[ $(json a .x) == $(json b .x) ]] would otherwise compare two absences as equal)
# or in a background subshell. In its place the caller's $(...) receives the word E2E_MISSING: no number
# (assert_cmp and check refuse it), equal to no expected string, an unset variable in bash arithmetic. lib_test.sh
# sets E2E_MISSING_ENDS_TEST=0 to see a helper's failure end only its subshell.
E2E_MISSING=json_value_missing
E2E_MISSING_ENDS_TEST=${E2E_MISSING_ENDS_TEST:-1}

# fail_missing MESSAGE: prints E2E_MISSING (for the caller's $(...)), then fails the test with MESSAGE; from a
# subshell it also ends the test's own shell (SIGTERM: its EXIT trap still cleans up), so no comparison made with the
# missing value can pass.
fail_missing() {
  echo "$E2E_MISSING"
  if [[ $BASHPID != "$$" && $E2E_MISSING_ENDS_TEST == 1 ]]; then
    echo "FAIL: $*" >&2
    kill -TERM "$$"
    exit 1
  fi
  fail "$*"
}

# strict_jq WHERE JQ_EXPR [FILE]: jq -r JQ_EXPR on FILE (or stdin); fails the test (fail_missing), naming WHERE and
# JQ_EXPR, when jq cannot read the input, when the expression yields no value (a select matching nothing, an empty
# array iterated, no input) or when any value it yields is null (what a missing field reads as).
strict_jq() {
  local where=$1 expr=$2 out code=0 err=$E2E_TMP/jq.$BASHPID.err
  shift 2
  out=$(jq -rn --arg e2e_missing "$E2E_MISSING" \
    "[inputs | ($expr)] | if length == 0 or any(.[]; . == null) then \$e2e_missing else .[] end" "$@" 2>"$err") ||
    code=$?
  if ((code != 0)); then fail_missing "$where: jq cannot read $expr: $(head -c 300 "$err")"; fi
  if [[ $'\n'$out$'\n' == *$'\n'$E2E_MISSING$'\n'* ]]; then
    fail_missing "$where: no value at $expr (missing or null; json_or_null reads a value that may be absent)"
  fi
  # One write, as jq's own output was: bash writes a builtin's output to a pipe line by line, and a reader that stops
  # at its first match (grep -q) would then end the writer with SIGPIPE, which pipefail reports as a failure. One
  # line under 4,000 bytes is one write of printf (checked with strace), so a single value is printed without
  # starting cat (about 15 ms each on a loaded host, and a test reads dozens); several lines go through cat.
  if [[ $out != *$'\n'* ]] && ((${#out} < 4000)); then printf '%s\n' "$out"; else cat <<<"$out"; fi
}

# json FILE JQ_EXPR: prints the value(s) JQ_EXPR selects in a JSON FILE (jq -r). A missing or unreadable file, no
# value, or a null among the values fails the test (see strict_jq): a field the test reads must be there.
json() { strict_jq "$1" "$2" "$1"; }

# json_or_null FILE JQ_EXPR: jq -r JQ_EXPR on FILE as it is ("null" for an absent field), for a test that checks an
# absence; a missing or unreadable file still fails the test.
json_or_null() {
  local err=$E2E_TMP/jq.$BASHPID.err
  jq -r "$2" "$1" 2>"$err" || fail "$1: jq cannot read $2: $(head -c 300 "$err")"
}

# assert_cmp A OP B MESSAGE: numeric comparison (floats allowed), OP one of < <= > >= ==. A or B not a number
# (is_number: "null", empty, a word) fails the test, naming the value and the comparison, whatever OP is.
assert_cmp() {
  (($# == 4)) || fail "assert_cmp: expected A OP B MESSAGE, got $# argument(s): $*"
  case $2 in '<' | '<=' | '>' | '>=' | '==') ;; *) fail "$4 (assert_cmp: unknown operator '$2' in: $1 $2 $3)" ;; esac
  is_number "$1" || fail "$4 (got '$1', not a number, in: '$1' $2 $3)"
  is_number "$3" || fail "$4 (the bound '$3' is not a number, in: $1 $2 '$3')"
  # Two whole numbers of up to 15 digits (what awk's doubles hold exactly) are compared by bash itself, base 10 (a
  # leading 0 is not octal), without starting awk: the same answer, without a process per comparison.
  if [[ $1 =~ ^-?[0-9]{1,15}$ && $3 =~ ^-?[0-9]{1,15}$ ]]; then
    local a=${1#-} b=${3#-} ok
    a=$((10#$a)) b=$((10#$b))
    [[ $1 == -* ]] && a=$((-a))
    [[ $3 == -* ]] && b=$((-b))
    case $2 in '<') ((a < b)) ;; '<=') ((a <= b)) ;; '>') ((a > b)) ;; '>=') ((a >= b)) ;; '==') ((a == b)) ;; esac && ok=1
    [[ -n ${ok:-} ]] || fail "$4 (got $1, expected $2 $3)"
    return 0
  fi
  awk -v a="$1" -v b="$3" -v op="$2" 'BEGIN { a += 0; b += 0;
    ok = (op == "<") ? a < b : (op == "<=") ? a <= b : (op == ">") ? a > b : (op == ">=") ? a >= b : a == b;
    exit ok ? 0 : 1 }' || fail "$4 (got $1, expected $2 $3)"
}

# assert_near A B TOLERANCE MESSAGE: |A - B| <= TOLERANCE, all three numbers (is_number), or the test fails naming them.
assert_near() {
  (($# == 4)) || fail "assert_near: expected A B TOLERANCE MESSAGE, got $# argument(s): $*"
  local v
  for v in "$1" "$2" "$3"; do is_number "$v" || fail "$4 (got '$v', not a number, in: |$1 - $2| <= $3)"; done
  awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; exit (d <= t + 0 && d >= -t) ? 0 : 1 }' ||
    fail "$4 (|$1 - $2| > $3)"
}

# expect_usage MESSAGE ARGS...: `openloop run ARGS` must exit 2 (bad usage, nothing sent) with MESSAGE in its output.
expect_usage() {
  local want=$1; shift
  set +e
  "$OPENLOOP" run "$@" >"$E2E_TMP/out.txt" 2>&1
  local code=$?
  set -e
  [[ $code == 2 ]] || fail "'$*' exit $code, expected 2"
  grep -qF -- "$want" "$E2E_TMP/out.txt" || fail "'$*' message lacks '$want': $(cat "$E2E_TMP/out.txt")"
}

# E2E_JQ_UNCONSERVED: a jq filter from an array of counts objects to how many of them do not conserve
# (intended = completed + timeouts + errors + dropped + unfinished) or lack one of the six counts (a missing one must
# not read as null = null + ...). For a test that reads a large file once; others call assert_conserved.
E2E_JQ_UNCONSERVED='map(select(([.intended, .completed, .timeouts, .errors, .dropped, .unfinished] | any(type != "number"))
  or .intended != .completed + .timeouts + .errors + .dropped + .unfinished)) | length'

# assert_conserved FILE [COUNTS]: conservation (E2E_JQ_UNCONSERVED) in every counts object of the jq array COUNTS,
# by default the summary's and every interval's ([.summary.counts, .intervals[].counts]); a place without its
# counts, or a COUNTS that reads nothing, fails.
assert_conserved() {
  local counts=${2:-[.summary.counts, .intervals[].counts]} bad
  bad=$(json "$1" "$counts | if length == 0 then null else $E2E_JQ_UNCONSERVED end")
  [[ $bad == 0 ]] || fail "conservation violated (or a count missing) in $bad place(s) of $1 ($counts)"
}

# accept_invalid_only_for CODE FILE PATTERN...: a run's exit CODE must be 0 (VALID), or 3 (INVALID) with at least
# one verdict reason in the results FILE and every one of them matching one of the extended regexes PATTERN (e.g.
# '^send lateness': the generator's own lateness on a loaded machine). A run judged INVALID for any other reason, or
# ending with any other code, fails the test.
accept_invalid_only_for() {
  local code=$1 file=$2 reason pattern matched
  shift 2
  # A generator late on its schedule also sends bunched: the arrival-process check fails with it
  # (docs/statistics.md), so accepting one accepts the other (a plan file's reasons start with the scenario's name).
  for pattern in "$@"; do
    [[ $pattern == *'send lateness'* ]] && set -- "$@" '^([A-Za-z0-9_.-]+: )?arrival process: ' && break
  done
  [[ $code == 0 ]] && return 0
  [[ $code == 3 ]] || fail "exit $code, expected 0 (VALID) or 3 (INVALID only for: $*)"
  [[ -s $file ]] || fail "exit 3 but no results file $file"
  [[ $(jq '.verdict.reasons | length' "$file") -gt 0 ]] || fail "exit 3 but the verdict in $file names no reason"
  while IFS= read -r reason; do
    matched=0
    for pattern in "$@"; do
      if grep -qE -- "$pattern" <<<"$reason"; then matched=1 && break; fi
    done
    ((matched)) || fail "INVALID for a reason not accepted here ($*): $reason"
  done < <(jq -r '.verdict.reasons[]' "$file")
  echo "note: INVALID only for accepted reasons: $(jq -c .verdict.reasons "$file") ($(uptime))"
}

# only_schedule_reasons FILE: the verdict in the results FILE names at least one reason, and each is the generator's
# own schedule (send lateness, or the arrival-process check that fails with it on a loaded machine).
only_schedule_reasons() {
  [[ $(jq '.verdict.reasons | length' "$1") -gt 0 ]] &&
    [[ $(jq '[.verdict.reasons[] | select(test("^(send lateness|arrival process: )") | not)] | length' "$1") == 0 ]]
}

# assert_complete_results FILE INTERVALS: FILE is a whole results file: its schema, a verdict, the summary's counts
# and latencies, INTERVALS one-second intervals, conservation in total and per interval.
assert_complete_results() {
  local file=$1 intervals=$2
  local got schema verdict counts times n bad
  [[ -s $file ]] || fail "no results file $file"
  # One jq for the six reads (each jq costs tens of ms to start): the same checks, in the same order.
  got=$(json "$file" "[(.schema | tostring), (.verdict.valid | type), (.summary.counts.intended | type),
    (.summary.response_time_ms | type), (.intervals | if type == \"array\" then length else \"none\" end),
    (if (.intervals | type) == \"array\" then [.summary.counts, .intervals[].counts] | $E2E_JQ_UNCONSERVED
     else \"none\" end)] | map(tostring) | join(\"\\u001f\")")
  IFS=$'\x1f' read -r schema verdict counts times n bad <<<"$got"
  [[ $schema == openloop.results/1 ]] || fail "$file: schema $schema"
  [[ $verdict == boolean ]] || fail "$file: no verdict"
  [[ $counts == number ]] || fail "$file: no summary counts"
  [[ $times == object ]] || fail "$file: no response times"
  assert_cmp "$n" == "$intervals" "$file: intervals"
  [[ $bad == 0 ]] || fail "conservation violated (or a count missing) in $bad place(s) of $file"
}

# start_lab ARGS...: starts `openloop lab --listen 127.0.0.1:0 ARGS` and waits (≤ 5 s, polled every 10 ms) for its
# "listening" line.
# Sets LAB_URL (http://127.0.0.1:PORT), PORT, LAB_PID (also appended to E2E_PIDS, so the EXIT trap
# kills it) and LAB_STARTED (epoch ns). A lab started earlier keeps running; stop_lab stops the latest.
start_lab() {
  # Empty the files first: the child truncates them only after the fork, and until then a restarted lab's
  # "listening" line would still be the previous lab's.
  : >"$E2E_TMP/lab.out"
  : >"$E2E_TMP/lab.err"
  "$OPENLOOP" lab --listen 127.0.0.1:0 "$@" >"$E2E_TMP/lab.out" 2>"$E2E_TMP/lab.err" &
  LAB_PID=$!
  E2E_PIDS+=("$LAB_PID")
  LAB_STARTED=$(date +%s%N)
  PORT=
  for _ in $(seq 500); do
    # The background shell may not have created lab.out yet: sed fails then, which set -e must not take as fatal.
    PORT=$(sed -n 's/^lab listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$E2E_TMP/lab.out" 2>/dev/null || true)
    [[ -n $PORT ]] && break
    kill -0 "$LAB_PID" 2>/dev/null || fail "the lab exited before listening"
    sleep 0.01
  done
  [[ -n $PORT ]] || fail "the lab did not print its listening line within 5 s"
  LAB_URL=http://127.0.0.1:$PORT
}

# start_prometheus JOB=HOST:PORT...: a real Prometheus ($PROMETHEUS) scraping each target every second (native
# histograms on), on a free loopback port, storage under $E2E_TMP; waits (≤ 20 s) until it is ready and (≤ 15 s)
# until it has scraped every job once. Sets PROMETHEUS_API (http://127.0.0.1:PORT); its process is in E2E_PIDS, its log in $E2E_TMP/prom.log.
start_prometheus() {
  local pport job
  pport=$(free_port)
  {
    echo "global: {scrape_interval: 1s, evaluation_interval: 1s}"
    echo "scrape_configs:"
    for job in "$@"; do
      echo "  - job_name: ${job%%=*}"
      echo "    static_configs: [{targets: [\"${job#*=}\"]}]"
    done
  } >"$E2E_TMP/prom.yml"
  "$PROMETHEUS" --config.file="$E2E_TMP/prom.yml" --storage.tsdb.path="$E2E_TMP/tsdb" \
    --web.listen-address="127.0.0.1:$pport" --enable-feature=native-histograms >"$E2E_TMP/prom.log" 2>&1 &
  E2E_PIDS+=("$!")
  PROMETHEUS_API=http://127.0.0.1:$pport
  for _ in $(seq 200); do
    curl -sf --max-time 1 "$PROMETHEUS_API/-/ready" >/dev/null 2>&1 && break
    sleep 0.1
  done
  curl -sf --max-time 1 "$PROMETHEUS_API/-/ready" >/dev/null ||
    fail "prometheus not ready within 20 s: $(tail -5 "$E2E_TMP/prom.log")"
  # Ready is not scraping: Prometheus hands its targets to the scrape loops up to 5 s after it starts (service
  # discovery's update interval), so a run started now had no sample in its first 4.5 s (stop 48: 3-s runs with a
  # 4-s linger, scraped only in their last 2 s or not at all). Wait for every job's first scrape (its `up` series,
  # 0 while nothing listens there), polled every 0.1 s for up to 15 s.
  local jobs=$# scraped=0
  for _ in $(seq 150); do
    scraped=$(curl -sf --max-time 1 --data-urlencode 'query=count(up)' "$PROMETHEUS_API/api/v1/query" |
      jq -r '.data.result[0].value[1] // 0' 2>/dev/null || echo 0)
    [[ $scraped == "$jobs" ]] && return 0
    sleep 0.1
  done
  fail "prometheus scraped $scraped of its $jobs job(s) within 15 s: $(tail -5 "$E2E_TMP/prom.log")"
}

# stop_lab: SIGTERM to the lab started last, then expects a clean exit 0 within 5 s (polled every 10 ms).
stop_lab() {
  kill -TERM "$LAB_PID"
  for _ in $(seq 500); do
    if ! kill -0 "$LAB_PID" 2>/dev/null; then
      local rc=0 pid kept=()
      wait "$LAB_PID" || rc=$?
      for pid in "${E2E_PIDS[@]}"; do [[ $pid == "$LAB_PID" ]] || kept+=("$pid"); done
      E2E_PIDS=("${kept[@]}")
      LAB_PID=
      [[ $rc -eq 0 ]] || fail "the lab exited with $rc after SIGTERM (expected 0)"
      return 0
    fi
    sleep 0.01
  done
  fail "the lab did not exit within 5 s of SIGTERM"
}

# probe_metastable ARGS...: `openloop probe metastable ARGS >p.txt 2>p.err` in the current folder; returns its exit
# code. A short probe judged INCONCLUSIVE (3) because the generator lagged or its baseline was unsteady is a loaded
# machine speaking, not the target: that run is made once more. Except when PROBE_ACCEPTED_WOULD_READ (an extended
# regex) is set and matches the verdict the probe says it would read without the generator's lateness, its
# INCONCLUSIVE naming that lateness alone (not the baseline): a test sets it to the verdicts it accepts behind that
# INCONCLUSIVE, so such a first try shows what the test checks as a first try with that verdict would, and is kept
# as that one is (a second try took 7-13 s). Sets PROBE_WOULD_READ to the returned try's verdict without the
# generator's lateness ("RECOVERED 0s after the trigger ended: ..."; empty when the probe gave none).
probe_metastable() {
  local attempt code would
  for attempt in 1 2; do
    code=0
    "$OPENLOOP" probe metastable "$@" >p.txt 2>p.err || code=$?
    would=$(sed -n "/without the generator's lateness the verdict would read: /{s/.*verdict would read: //p;q}" p.txt)
    PROBE_WOULD_READ=$would
    if [[ $attempt == 1 && $code == 3 && -n ${PROBE_ACCEPTED_WOULD_READ:-} && -n $would ]] &&
      grep -q "^INCONCLUSIVE: the generator's send lateness could have decided the verdict" p.txt &&
      ! grep -q 'baseline was not steady' p.txt && grep -qE -- "$PROBE_ACCEPTED_WOULD_READ" <<<"$would"; then
      echo "inconclusive for the generator's lateness alone (attempt 1), and without it: ${would%%:*}; not run again"
      return 3
    fi
    if [[ $attempt == 1 && $code == 3 ]] && grep -qE 'generator|baseline was not steady' p.txt; then
      [[ -z $would ]] || would=" (without the lateness it would read: ${would%%:*})"
      echo "inconclusive on a loaded machine (attempt $attempt), running once more: $(grep -m1 '^INCONCLUSIVE' p.txt |
        cut -c1-240 || true)$would"
      continue
    fi
    return "$code"
  done
}

# since_lab_start: seconds since the last start_lab, as a decimal.
since_lab_start() { awk -v now="$(date +%s%N)" -v t0="$LAB_STARTED" 'BEGIN { printf "%.3f", (now - t0) / 1e9 }'; }

# lab_query JQ_FILTER: one value from GET /_lab/stats of the lab started last; no answer, no value or null fails the
# test as json does (strict_jq).
lab_query() { curl -sS --max-time 5 "$LAB_URL/_lab/stats" | strict_jq "$LAB_URL/_lab/stats" "$1"; }

# http_status URL [curl args...]: the HTTP status code of one request (000 if none within 10 s).
http_status() {
  local url=$1
  shift
  curl -s -o /dev/null -w '%{http_code}\n' --max-time 10 "$@" "$url" || true
}

# raw_request TEXT: sends TEXT (printf %b escapes) on a fresh connection to the lab and prints what comes back
# until the lab closes (≤ 5 s).
raw_request() {
  local fd
  exec {fd}<>"/dev/tcp/127.0.0.1/$PORT"
  printf '%b' "$1" >&"$fd"
  timeout 5 cat <&"$fd" || true
  exec {fd}>&-
}

# wrk_rate ARGS...: runs wrk (≤ 30 s) with ARGS against the lab's / and prints its Requests/sec; the whole
# output stays in $E2E_TMP/wrk.out. Output without that number fails the test.
wrk_rate() {
  local rate
  timeout 30 wrk "$@" "$LAB_URL/" >"$E2E_TMP/wrk.out" 2>&1 || fail "wrk failed: $(cat "$E2E_TMP/wrk.out")"
  rate=$(awk '/^Requests\/sec:/ {print $2}' "$E2E_TMP/wrk.out")
  is_number "$rate" || fail_missing "wrk printed no Requests/sec: $(cat "$E2E_TMP/wrk.out")"
  echo "$rate"
}

# two_at_a_time N FUNC: runs FUNC 1 … FUNC N, each in its own subshell, two at a time (one per core), and waits for
# all of them. A call that fails only ends its subshell (its message on stderr): the caller checks what each left.
two_at_a_time() {
  local n=$1 func=$2 i pids=()
  for i in $(seq 1 "$n"); do
    ("$func" "$i") &
    pids+=($!)
    if ((${#pids[@]} == 2)); then
      wait "${pids[0]}" || true
      pids=("${pids[@]:1}")
    fi
  done
  for i in "${pids[@]}"; do wait "$i" || true; done
}

# interrupt_on_line PID FILE PATTERN: once FILE (a command's stderr) has a line matching PATTERN (≤ 20 s, polled),
# sends SIGINT to PID and waits for it; sets INTERRUPT_CODE (its exit code) and INTERRUPT_EXIT_S (seconds from the
# signal to its exit). Fails when the line never comes.
interrupt_on_line() {
  local pid=$1 file=$2 pattern=$3 signalled
  for _ in $(seq 1000); do
    grep -q -- "$pattern" "$file" && break
    sleep 0.02
  done
  grep -q -- "$pattern" "$file" || fail "no line matching '$pattern' within 20 s: $(cat "$file")"
  signalled=$(date +%s%N)
  kill -INT "$pid"
  set +e
  wait "$pid"
  INTERRUPT_CODE=$?
  set -e
  INTERRUPT_EXIT_S=$(awk -v a="$signalled" -v b="$(date +%s%N)" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
}
