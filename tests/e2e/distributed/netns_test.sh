# Shards as separate hosts: network namespaces (root), each shard in its own with its own address, the lab in
# another, joined by a bridge in a fourth; nothing is added to the caller's namespace, and everything is deleted on
# exit. Two shards start at one --start-at; the lab's side shows each shard's own source address (ss in the lab's
# namespace), and the merged run holds exactly the unsharded plan's intended requests.
# e2e: light (intended counts per interval, exact; the shards' addresses seen by ss)
source "$OPENLOOP_E2E_LIB"
require_tools ip ss
[[ $(id -u) == 0 ]] || { echo "skip: network namespaces need root"; exit 77; }
tag=ol$$
ns_lab=$tag-lab ns_br=$tag-br
netns_cleanup() {
  for ns in "$ns_lab" "$tag-s0" "$tag-s1" "$ns_br"; do ip netns del "$ns" 2>/dev/null || true; done
}
trap 'netns_cleanup; e2e_cleanup' EXIT
ip netns add "$ns_br" || { echo "skip: cannot create network namespaces here"; exit 77; }
ip -n "$ns_br" link add br0 type bridge
ip -n "$ns_br" link set br0 up
join() { # NAMESPACE ADDRESS
  ip netns add "$1"
  ip -n "$1" link set lo up
  ip link add "v-$1" netns "$ns_br" type veth peer name eth0 netns "$1"
  ip -n "$ns_br" link set "v-$1" master br0 up
  ip -n "$1" addr add "$2/24" dev eth0
  ip -n "$1" link set eth0 up
}
join "$ns_lab" 10.213.0.1
join "$tag-s0" 10.213.0.10
join "$tag-s1" 10.213.0.11

ip netns exec "$ns_lab" "$OPENLOOP" lab --listen 10.213.0.1:8080 --workers 256 --service 1ms \
  >"$E2E_TMP/lab.out" 2>"$E2E_TMP/lab.err" &
E2E_PIDS+=($!)
for _ in $(seq 100); do grep -q 'listening' "$E2E_TMP/lab.out" 2>/dev/null && break; sleep 0.05; done
grep -q 'listening' "$E2E_TMP/lab.out" || fail "the lab did not start in its namespace"

start_at=$(date -u -d '+3 seconds' +%Y-%m-%dT%H:%M:%SZ)
for i in 0 1; do
  ip netns exec "$tag-s$i" "$OPENLOOP" run http://10.213.0.1:8080/ --rate 400/s --duration 2s --threads 1 \
    --shard "$i/2" --start-at "$start_at" --quiet --no-html --json "$E2E_TMP/shard-$i.json" >/dev/null &
  pids[i]=$!
  E2E_PIDS+=(${pids[i]})
done
# The lab's side of the connections, seen while the shards run (bounded: at most 8 s of 0.1-s polls).
seen=
for _ in $(seq 80); do
  seen=$(ip netns exec "$ns_lab" ss -Htn state established '( sport = :8080 )' | awk '{print $4}' | cut -d: -f1 |
    sort -u | tr '\n' ' ')
  [[ $seen == *10.213.0.10* && $seen == *10.213.0.11* ]] && break
  sleep 0.1
done
[[ $seen == *10.213.0.10* && $seen == *10.213.0.11* ]] || fail "the lab did not see both shards' addresses: $seen"
pass "the lab saw each shard's own source address ($seen)"
for i in 0 1; do
  set +e
  wait "${pids[i]}"
  code=$?
  set -e
  accept_invalid_only_for "$code" "$E2E_TMP/shard-$i.json" '^send lateness'
done
set +e
"$OPENLOOP" merge -q "$E2E_TMP"/shard-{0,1}.json -o "$E2E_TMP/merged.json"
code=$?
set -e
[[ $code == 0 ]] || fail "merge of two namespaced shards exited $code"
# 2 s of 400/s (3 s until stop 47): exact counts, per interval too, whatever the length.
assert_cmp "$(json "$E2E_TMP/merged.json" .summary.counts.intended)" == 800 "merged intended = 400/s × 2 s"
jq -e '[.intervals[].counts.intended] == [400, 400]' "$E2E_TMP/merged.json" >/dev/null ||
  fail "merged intended per interval: $(jq -c '[.intervals[].counts.intended]' "$E2E_TMP/merged.json")"
skew=$(jq -s 'map(.environment.start_unix_s) | max - min' "$E2E_TMP"/shard-{0,1}.json)
echo "note: start skew between namespaced shards: $skew s"
pass "two shards in their own namespaces merged exactly"
