#!/usr/bin/env bash
# openloop with GNU parallel: N shards on this machine (or, with --sshlogin, on others), one common start,
# then a merge. Usage: openloop-parallel.sh N URL [openloop run options]
set -euo pipefail
n=${1:?usage: openloop-parallel.sh N URL [run options]}; shift
start_at=$(date -u -d '+5 seconds' +%Y-%m-%dT%H:%M:%SZ)
run_id=parallel-$(date -u +%Y%m%dT%H%M%SZ)-$$
# The line itself ({} is the shard index). Its exit status counts the shards that did not exit 0, which includes
# SLO failures (1) and INVALID runs (3) that still wrote results: the merge decides, and refuses (exit 2, naming
# it) a shard that wrote nothing, e.g. one that started late (75).
parallel --line-buffer -j "$n" \
  openloop run "$@" --shard {}/"$n" --start-at "$start_at" --run-id "$run_id" --quiet --no-html \
  --json shard-{}.json ::: $(seq 0 $((n - 1))) || true
exec openloop merge shard-*[0-9].json -o merged.json
