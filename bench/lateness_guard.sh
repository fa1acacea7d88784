#!/usr/bin/env bash
# lateness_guard.sh: does openloop still send on time at modest rates? ROUNDS runs each of
#   openloop run LAB --rate R --duration SECS --threads 1
# at R = 500/s and 2000/s against the lab on loopback (4 workers, 1 ms service), default precision (--spin-below
# auto, its default budget): one line per run with send lateness p99, p99.9 and max, the worst lateness in the first
# interval (a regression such as "the first sends delayed 50 ms" shows there before it moves a p99), the verdict,
# the timer floor and what auto spent spinning; then per rate the median p99 and how many runs were VALID. Not a
# test (a loaded host moves the figures): run it on demand before and after a change to the engine's wait or
# send path. Traffic only to 127.0.0.1; every run bounded by timeout.
# usage: bench/lateness_guard.sh [BUILD_DIR]   (env: ROUNDS=3 SECS=5 RATES="500 2000")
set -euo pipefail
BUILD=${1:-build/release}
OPENLOOP=$BUILD/src/cli/openloop
ROUNDS=${ROUNDS:-3}
SECS=${SECS:-5}
RATES=${RATES:-500 2000}
[[ -x $OPENLOOP ]] || { echo "lateness_guard: $OPENLOOP is not an executable (build it first)" >&2; exit 2; }
export OPENLOOP_E2E_LIB=$(dirname "$0")/../tests/e2e/lib.sh
source "$OPENLOOP_E2E_LIB" "$OPENLOOP"

start_lab --workers 4 --service 1ms
echo "host: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg) at start"
for rate in $RATES; do
  p99s=()
  valid=0
  for round in $(seq "$ROUNDS"); do
    r=$E2E_TMP/g-$rate-$round.json
    code=0
    timeout $((SECS + 30)) "$OPENLOOP" run "$LAB_URL/" --rate "$rate/s" --duration "${SECS}s" -t 1 -q --slo none \
      --json "$r" --no-html >/dev/null 2>"$E2E_TMP/err.txt" || code=$?
    [[ $code == 0 || $code == 3 ]] || fail "$rate/s round $round: exit $code: $(cat "$E2E_TMP/err.txt")"
    p99=$(json "$r" .summary.send_lateness_ms.p99)
    p99s+=("$p99")
    [[ $(json "$r" .verdict.valid) == true ]] && valid=$((valid + 1))
    printf '%5s/s round %d: lateness p99 %.3f ms p99.9 %.3f ms max %.3f ms, first interval max %.3f ms, %s; ' \
      "$rate" "$round" "$p99" "$(json "$r" .summary.send_lateness_ms.p999)" \
      "$(json "$r" .summary.send_lateness_ms.max)" "$(json "$r" '.intervals[0].send_lateness_ms.max')" \
      "$(jq -r 'if .verdict.valid then "VALID" else "INVALID" end' "$r")"
    # The budget's fields are absent in files of builds before --spin-budget: "-" then, so two builds compare.
    jq -r '.environment.timer_floor as $f
      | "floor p99 \($f.p99_us | floor) µs, spin lead \($f.spin_lead_us | floor) µs, budget \($f.spin_budget)"
        + " spent \($f.spin_spent // "-") (low \($f.spin_budget_low // "-"))"' "$r" | tr -d '\n'
    echo "; load $(cut -d' ' -f1-3 /proc/loadavg)"
  done
  printf '%5s/s: median lateness p99 %s ms, %d of %d runs VALID\n' "$rate" \
    "$(printf '%s\n' "${p99s[@]}" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')" \
    "$valid" "$ROUNDS"
done
