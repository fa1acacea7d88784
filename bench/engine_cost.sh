#!/usr/bin/env bash
# engine_cost: the generator's cost of two openloop builds side by side (main and a branch: the engine's protocol
# seam was measured so), against one nginx worker pinned to core 0 with the generator pinned to core 1, rounds
# alternating BEFORE, AFTER so neighbours compare on a noisy machine. Two runs per build and round:
#   open:   --rate COST_RATE (20000/s), one thread: worker CPU per request sent (results file: generator.cpu_s −
#           generator.spin_s, spin off by default so polling is not counted as work);
#   closed: --vus COST_VUS (50) --think 0, one thread: throughput (completed per second), the most one core sends.
# With wrk on PATH, each round also runs `wrk -t1 -c COST_VUS` on the same core, and the closed-loop throughput of
# each build is printed as a ratio to wrk's (the issue's reference: openloop closed ≈ 1.03-1.10x wrk).
# Not a test: it prints each round and the means with the ratio AFTER/BEFORE. Traffic only to 127.0.0.1; bounded.
#
# usage: bench/engine_cost.sh BEFORE AFTER   (openloop executables, or build dirs holding src/cli/openloop)
#        e.g. git worktree add /tmp/main main && cmake --preset release (in it) && cmake --build ... --target openloop
#        then bench/engine_cost.sh /tmp/main/build/release build/release
# env:   COST_RATE (20000/s) COST_DURATION (10s) COST_ROUNDS (3) COST_VUS (50) COST_SPIN_BELOW (0)
set -euo pipefail
cd "$(dirname "$0")/.."
binary() { if [[ -d $1 ]]; then echo "$1/src/cli/openloop"; else echo "$1"; fi; }
A=$(binary "${1:?usage: bench/engine_cost.sh BEFORE AFTER}")
B=$(binary "${2:?usage: bench/engine_cost.sh BEFORE AFTER}")
RATE=${COST_RATE:-20000/s}
DURATION=${COST_DURATION:-10s}
ROUNDS=${COST_ROUNDS:-3}
VUS=${COST_VUS:-50}
SPIN=${COST_SPIN_BELOW:-0}
for bin in "$A" "$B"; do [[ -x $bin ]] || { echo "engine_cost: $bin is not an executable" >&2; exit 2; }; done
command -v nginx >/dev/null || { echo "engine_cost: nginx is not installed" >&2; exit 77; }
export OPENLOOP_E2E_LIB=$PWD/tests/e2e/lib.sh
source "$OPENLOOP_E2E_LIB" "$B"

port=$(free_port)
start_nginx "$port"
URL=http://127.0.0.1:$port/
taskset -pc 0 "$(nginx_worker_pid)" >/dev/null
GEN="taskset -c 1"

open_cost() {  # BINARY OUT: µs of worker CPU per request sent
  $GEN "$1" run "$URL" --rate "$RATE" -d "$DURATION" --threads 1 --spin-below "$SPIN" --quiet --json "$2" \
    --no-html >/dev/null 2>&1 || true
  jq -r '((.generator.cpu_s - .generator.spin_s) / .summary.counts.sent * 1e6)' "$2"
}
closed_rate() {  # BINARY OUT: completed per second
  $GEN "$1" run "$URL" --vus "$VUS" --think 0 -d "$DURATION" --threads 1 --quiet --json "$2" --no-html \
    >/dev/null 2>&1 || true
  jq -r '(.summary.counts.completed / .plan.duration_s)' "$2"
}
wrk_closed() {  # completed per second of wrk, closed loop, same connections and core; empty without wrk
  command -v wrk >/dev/null || return 0
  $GEN timeout $((${DURATION%s} + 30)) wrk -t1 -c "$VUS" -d "$DURATION" "$URL" 2>&1 | awk '/^Requests\/sec:/ {print $2}'
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %-7s %16s %16s %14s %14s\n' round build "open µs/req" "closed req/s" "steal core1 %" load
sums=(0 0 0 0)
wrk_sum=0
for round in $(seq "$ROUNDS"); do
  w=$(wrk_closed)
  if [[ -n $w ]]; then
    printf '%-6s %-7s %16s %16.0f\n' "$round" wrk "" "$w"
    wrk_sum=$(awk -v s="$wrk_sum" -v x="$w" 'BEGIN { print s + x }')
  fi
  i=0
  for which in before after; do
    bin=$A
    [[ $which == after ]] && bin=$B
    s0=$(cpu_ticks 1)
    c=$(open_cost "$bin" "$E2E_TMP/$which-open-$round.json")
    t=$(closed_rate "$bin" "$E2E_TMP/$which-closed-$round.json")
    steal=$(steal_pct "$s0" "$(cpu_ticks 1)")
    printf '%-6s %-7s %16.3f %16.0f %14s %14s\n' "$round" "$which" "$c" "$t" "$steal" "$(cut -d' ' -f1 /proc/loadavg)"
    sums[i]=$(awk -v s="${sums[i]}" -v x="$c" 'BEGIN { print s + x }')
    sums[i + 1]=$(awk -v s="${sums[i + 1]}" -v x="$t" 'BEGIN { print s + x }')
    i=2
  done
done
echo "commands: openloop run URL --rate $RATE -d $DURATION --threads 1 --spin-below $SPIN;" \
  "openloop run URL --vus $VUS --think 0 -d $DURATION --threads 1 (nginx: 1 worker on core 0; generator on core 1)"
awk -v a="${sums[0]}" -v b="${sums[2]}" -v ta="${sums[1]}" -v tb="${sums[3]}" -v n="$ROUNDS" 'BEGIN {
  printf "mean CPU per request (open): before %.3f µs, after %.3f µs, after/before %.3f\n", a / n, b / n, b / a
  printf "mean closed-loop throughput: before %.0f/s, after %.0f/s, after/before %.3f\n", ta / n, tb / n, tb / ta }'
[[ $wrk_sum == 0 ]] || awk -v w="$wrk_sum" -v ta="${sums[1]}" -v tb="${sums[3]}" -v n="$ROUNDS" 'BEGIN {
  printf "mean wrk -t1 -c'"$VUS"': %.0f/s; closed-loop throughput / wrk: before %.3f, after %.3f\n", w / n, ta / w, tb / w }'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
