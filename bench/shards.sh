#!/usr/bin/env bash
# bench/shards.sh [OPENLOOP]: 1, 2, 4 shards (pdsh -R exec, loopback) of one plan at RATE; prints validity, offered, send lateness p99, skew.
set -u
OL=${1:-build/release/src/cli/openloop}
root=$(cd "$(dirname "$0")/.." && pwd)
RATE=${RATE:-30000/s}
out=${OUT:-/tmp/openloop-shards-bench}; rm -rf $out; mkdir -p $out
$OL lab --listen 127.0.0.1:18099 --workers 4096 --service 0 > $out/lab.log 2>&1 &
lab=$!
for _ in $(seq 100); do grep -q listening $out/lab.log && break; sleep 0.05; done
for n in 1 2 4; do
  d=$out/n$n
  last=$((n - 1))
  "$root/deploy/pdsh/openloop-shards" -R exec -w "s[0-$last]" -d $d -s 3 -b $OL -- \
    http://127.0.0.1:18099/ --rate $RATE --duration 5s --threads 1 --timeout 2s >/dev/null 2>$d.err
  echo "n=$n exit=$? $(jq -r '[.verdict.valid, .summary.offered_rps, .summary.send_lateness_ms.p99, .summary.counts.intended, .summary.counts.dropped] | @tsv' $d/merged.json 2>/dev/null) skew=$(jq -s 'map(.environment.start_unix_s) | max - min' $d/shard-*[0-9].json 2>/dev/null) lag_max=$(jq -s 'map(.start.lag_s) | max' $d/shard-*[0-9].json 2>/dev/null)"
  for f in $d/shard-*[0-9].json; do echo "   $(basename $f): $(jq -r '[.verdict.valid, .summary.offered_rps, .summary.send_lateness_ms.p99, .generator.cpu_s] | @tsv' $f)"; done
done
kill $lab
