#!/usr/bin/env bash
# simulate: how many simulated requests `openloop simulate` runs per CPU-second (the goal: at least 1 M). Ten
# minutes of 2,000 Poisson arrivals/s against 4 lab workers of exp:1.5 ms (75 % busy), the process's user +
# system CPU from /usr/bin/time. Not a test: it prints.
#
# usage: bench/simulate.sh [path/to/openloop]   (default: build/release/src/cli/openloop; build it Release)
# env:   SIM_RATE (2000/s) SIM_DURATION (10m) SIM_LAB ('--workers 4 --service exp:1.5ms') SIM_ROUNDS (3: best kept)
set -euo pipefail
cd "$(dirname "$0")/.."
OPENLOOP=${1:-build/release/src/cli/openloop}
RATE=${SIM_RATE:-2000/s}
DURATION=${SIM_DURATION:-10m}
LAB=${SIM_LAB:---workers 4 --service exp:1.5ms}
ROUNDS=${SIM_ROUNDS:-3}
[[ -x $OPENLOOP ]] || { echo "simulate: $OPENLOOP is not an executable (build the openloop target)" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
best=0
for round in $(seq "$ROUNDS"); do
  /usr/bin/time -f '%U %S' -o "$TMP/time" "$OPENLOOP" simulate http://127.0.0.1/ --rate "$RATE" --arrival poisson \
    -d "$DURATION" --lab "$LAB" --quiet --json "$TMP/r.json" --no-html >/dev/null 2>"$TMP/err" || true
  requests=$(jq '.summary.counts.attempts + .warmup.counts.attempts' "$TMP/r.json" 2>/dev/null ||
    jq '.summary.counts.sent' "$TMP/r.json")
  cpu=$(awk '{ print $1 + $2 }' "$TMP/time")
  rate=$(awk -v n="$requests" -v c="$cpu" 'BEGIN { printf "%.2f", n / c / 1e6 }')
  echo "round $round: $requests requests in $cpu CPU-s: $rate M simulated requests per CPU-second"
  best=$(awk -v a="$best" -v b="$rate" 'BEGIN { print (b > a ? b : a) }')
done
echo "command: openloop simulate URL --rate $RATE --arrival poisson -d $DURATION --lab '$LAB' (load $(cut -d' ' -f1 /proc/loadavg))"
echo "best: $best M simulated requests per CPU-second"
