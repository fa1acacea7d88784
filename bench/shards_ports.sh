#!/usr/bin/env bash
# bench/shards_ports.sh [OPENLOOP]: a rate one shard cannot hold, held by 2 and 4. Each shard runs in a network
# namespace of its own (its own address, like a host) whose ephemeral port range is PORTS ports wide (default 24);
# the lab, in another namespace, serves every request in SERVICE (default 30ms) with ample workers, so RATE (default
# 1000/s) needs about RATE x SERVICE = 30 connections at once: more local ports than one shard has. Needs root
# (ip netns); everything is deleted on exit. Prints, for 1, 2 and 4 shards, the merged verdict, offered rate,
# generator errors (could not open a socket), send lateness p99 and start skew, then each shard's line.
set -u
OL=$(realpath "${1:-build/release/src/cli/openloop}")
root=$(cd "$(dirname "$0")/.." && pwd)
RATE=${RATE:-1000/s} SERVICE=${SERVICE:-30ms} PORTS=${PORTS:-24} DURATION=${DURATION:-5s}
[[ $(id -u) == 0 ]] || { echo "bench/shards_ports.sh: needs root (network namespaces)" >&2; exit 2; }
out=${OUT:-/tmp/openloop-shards-ports}; rm -rf "$out"; mkdir -p "$out"
tag=olb$$ br=olb$$-br lab=olb$$-lab  # pids have at most 7 digits: names fit a veth name
cleanup() {
  for ns in $(ip netns list | awk -v t="$tag-" 'index($1, t) == 1 { print $1 }'); do ip netns del "$ns" 2>/dev/null; done
  [[ -n ${labpid:-} ]] && kill "$labpid" 2>/dev/null
}
trap cleanup EXIT
ip netns add "$br"
ip -n "$br" link add br0 type bridge
ip -n "$br" link set br0 up
join() { # NAMESPACE ADDRESS (veth names: "v" + the namespace, at most 15 characters)
  ip netns add "$1"
  ip -n "$1" link set lo up
  ip link add "v$1" netns "$br" type veth peer name eth0 netns "$1"
  ip -n "$br" link set "v$1" master br0 up
  ip -n "$1" addr add "$2/24" dev eth0
  ip -n "$1" link set eth0 up
}
join "$lab" 10.214.0.1
# Fresh namespaces for each number of shards: a run's closed connections hold their ports in TIME-WAIT for 60 s.
for n in 1 2 4; do
  for ((i = 0; i < n; i++)); do
    join "$tag-$n-$i" "10.214.0.$((10 * n + i))"
    ip netns exec "$tag-$n-$i" sysctl -qw net.ipv4.ip_local_port_range="40000 $((40000 + PORTS - 1))"
  done
done
ip netns exec "$lab" "$OL" lab --listen 10.214.0.1:8080 --workers 4096 --service "$SERVICE" >"$out/lab.log" 2>&1 &
labpid=$!
for _ in $(seq 100); do grep -q listening "$out/lab.log" && break; sleep 0.05; done
echo "rate $RATE, service $SERVICE, $PORTS local ports per shard namespace, $DURATION"
for n in 1 2 4; do
  d=$out/n$n; mkdir -p "$d"
  at=$(date -u -d '+3 seconds' +%Y-%m-%dT%H:%M:%SZ)
  pids=()
  for ((i = 0; i < n; i++)); do
    ip netns exec "$tag-$n-$i" "$OL" run http://10.214.0.1:8080/ --rate "$RATE" --duration "$DURATION" --threads 1 \
      --timeout 2s --shard "$i/$n" --start-at "$at" --run-id "ports-$n-$$" --quiet --no-html \
      --json "$d/shard-$i.json" >/dev/null 2>"$d/shard-$i.err" &
    pids+=($!)
  done
  wait "${pids[@]}"
  if ((n == 1)); then cp "$d/shard-0.json" "$d/merged.json"; else "$OL" merge -q "$d"/shard-[0-9].json -o "$d/merged.json"; fi
  echo "$n shard(s): $(jq -r '"valid \(.verdict.valid)  offered \(.summary.offered_rps | floor)/s  generator errors \(.summary.counts.errors_by_kind.generator)  lateness p99 \(.summary.send_lateness_ms.p99) ms"' "$d/merged.json") skew $(jq -s 'map(.environment.start_unix_s) | max - min' "$d"/shard-[0-9].json) s"
  for f in "$d"/shard-[0-9].json; do
    echo "   $(basename "$f"): $(jq -r '"valid \(.verdict.valid)  offered \(.summary.offered_rps | floor)/s  generator errors \(.summary.counts.errors_by_kind.generator)  peak connections \(.generator.peak_connections // "?")  reasons \(.verdict.reasons)"' "$f")"
  done
done
