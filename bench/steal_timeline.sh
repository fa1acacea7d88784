#!/usr/bin/env bash
# steal_timeline: are the generator's late sends the hypervisor's doing? One run, pinned like bench/wrk2_ratio.sh
# (nginx, 1 worker, on core 0; openloop, one thread, on core 1), with the per-request log, while a sampler on core
# 0 reads core 1's steal from /proc/stat every 2 ms. Then, per 20-ms window of intended times: the worst send
# lateness, split by whether core 1 had steal accounted in that window or the next (the kernel accounts steal at
# its tick, so a little after it happened). If stalls were the generator's own (interval boundaries, the
# coordinator), windows without steal would be as often late as windows with it.
# Usage: bench/steal_timeline.sh BUILD_DIR   (env: RATE=20000, SECS=8, FLAGS=extra openloop flags, ROUNDS=1)
# Traffic only to 127.0.0.1; every run is bounded (--duration; the sampler stops by itself).
set -euo pipefail
BUILD=${1:-build/release}
OPENLOOP=$BUILD/src/cli/openloop
RATE=${RATE:-20000}
SECS=${SECS:-8}
export OPENLOOP_E2E_LIB=$(dirname "$0")/../tests/e2e/lib.sh
source "$OPENLOOP_E2E_LIB" "$OPENLOOP"
port=$(free_port)
start_nginx "$port"
taskset -pc 0 "$(nginx_worker_pid)" >/dev/null
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| round | verdict | send lateness p50 / p99 / p99.9 µs | worker waited for a CPU | steal on core 1 | windows with steal: worst send > 1 ms late | windows without steal: worst send > 1 ms late |"
echo "|---|---|---|---|---|---|---|"
for round in $(seq "${ROUNDS:-1}"); do
  t=$E2E_TMP/run-$round
  # The sampler: time (Unix s) and core 1's steal ticks, every 2 ms, for the run and a second either side.
  taskset -c 0 perl -MTime::HiRes=time,usleep -e '
    my $end = time + $ARGV[0]; $| = 1;
    while (time < $end) {
      open(my $f, "<", "/proc/stat") or die; my $l;
      while ($l = <$f>) { last if $l =~ /^cpu1 / } close $f;
      my @v = split " ", $l; printf "%.4f %d\n", time, $v[8]; usleep(2000);
    }' $((SECS + 3)) >"$t.steal" &
  sampler=$!
  sleep 1  # the sampler's first readings precede the run (bounded: it ends by itself)
  s0=$(cpu_ticks 1)
  # shellcheck disable=SC2086
  taskset -c 1 "$OPENLOOP" run "http://127.0.0.1:$port/" --rate "$RATE/s" --duration "${SECS}s" --threads 1 -q \
    ${FLAGS:-} --json "$t.json" --log-requests "$t.csv" --log-format csv >/dev/null &
  gen=$!
  # The log's writer off the worker's core: formatting a line per request is work the worker must not share.
  pin_thread "$gen" openloop-log 0 || echo "note: the log writer was not moved (no thread named openloop-log)"
  wait "$gen" || true
  steal=$(steal_pct "$s0" "$(cpu_ticks 1)")
  wait "$sampler"
  split=$(awk -v B="$(head -1 "$t.steal" | cut -d' ' -f1 | cut -d. -f1)" '
    FNR == NR { if (p != "") { d = $2 - ps; if (d > 0) st[int(($1 - B) * 50)] += d } p = $1; ps = $2; next }
    FNR > 1 { split($0, c, ","); b = int((c[1] - B) * 50); late = (c[2] - c[1]) * 1e3; if (late > ml[b]) ml[b] = late; seen[b] = 1 }
    END {
      for (b in seen) { k = (st[b] + st[b + 1] > 0) ? 1 : 0; n[k]++; if (ml[b] > 1) big[k]++ }
      printf "%d of %d (%.0f %%) | %d of %d (%.0f %%)", big[1], n[1], n[1] ? 100 * big[1] / n[1] : 0,
        big[0], n[0], n[0] ? 100 * big[0] / n[0] : 0 }' "$t.steal" "$t.csv")
  echo "| $round | $(jq -r 'if .verdict.valid then "VALID" else "INVALID" end' "$t.json") |" \
    "$(jq -r '[.summary.send_lateness_ms | .p50, .p99, .p999] | map(. * 1000 | floor) | join(" / ")' "$t.json") |" \
    "$(jq -r '.generator.run_delay_s // 0 | . * 1000 | floor' "$t.json") ms | $steal % | $split |"
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
