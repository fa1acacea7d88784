#!/usr/bin/env bash
# cgroup:PATH on a real cgroup v2 directory: the test creates one (under /sys/fs/cgroup on a v2 host, under the
# hybrid layout's /sys/fs/cgroup/unified on a v1 host), moves the lab into it, and checks that the cgroup's CPU
# equals the lab process's own and that its pressure is read. Skipped where no cgroup v2 hierarchy is mounted or a
# cgroup cannot be created (not root, read-only /sys/fs/cgroup). The hybrid layout has no controllers, so cpu.max
# and memory.current are not there: throttling and memory are left to the unit tests' fixtures.
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
require_tools jq timeout
if [[ $(stat -fc %T /sys/fs/cgroup 2>/dev/null) == cgroup2fs ]]; then base=/sys/fs/cgroup prefix=
elif [[ $(stat -fc %T /sys/fs/cgroup/unified 2>/dev/null) == cgroup2fs ]]; then base=/sys/fs/cgroup/unified prefix=unified/
else echo "SKIP: no cgroup v2 hierarchy mounted"; exit 77; fi
name=openloop-e2e-$$
dir=$base/$name
mkdir "$dir" 2>/dev/null || { echo "SKIP: cannot create a cgroup under $base"; exit 77; }
# Before lib.sh's own cleanup kills the lab: the lab back to the parent, then the cgroup removed (bounded retries).
cgroup_cleanup() {
  [[ -n ${LAB_PID:-} ]] && echo "$LAB_PID" >"$base/cgroup.procs" 2>/dev/null
  e2e_cleanup
  for _ in 1 2 3 4 5; do rmdir "$dir" 2>/dev/null && break; sleep 0.1; done
}
trap cgroup_cleanup EXIT
start_lab --workers 4 --service 2ms --burn
echo "$LAB_PID" >"$dir/cgroup.procs" 2>/dev/null || { echo "SKIP: cannot move a process into $dir"; exit 77; }
[[ $(cat "$dir/cgroup.procs") == "$LAB_PID" ]] || fail "the lab alone in $dir: $(cat "$dir/cgroup.procs")"
cd "$E2E_TMP"
spec=cgroup:$prefix$name
code=0
timeout 30 "$OPENLOOP" run "$LAB_URL/" --rate 200/s --duration 3s -t 1 -q --max-lateness 100ms --timeout 1s \
  --observe "$spec" --observe "pid:$LAB_PID" --json r.json --no-html >out.txt 2>err.txt || code=$?
accept_invalid_only_for "$code" r.json '^send lateness'  # the generator's own, on a busy box
[[ $(jq --arg s "$spec" '[.warnings[] | select(contains($s))] | length' r.json) == 0 ]] ||
  fail "the cgroup was read: $(jq -c .warnings r.json)"
sig() { jq -r --arg s "$1" --arg n "$2" '.summary.observed.signals[] | select(.source == $s and .name == $n) | .mean' r.json; }
cg=$(sig "$spec" cpu)
proc=$(sig "pid:$LAB_PID" cpu)
[[ -n $cg && $cg != null && -n $proc && $proc != null ]] || fail "both CPUs measured: cgroup $cg, process $proc"
# 200/s of 2 ms burns is about 0.4 of a core (less when the core is shared): the lab is the cgroup's only process.
assert_cmp "$proc" ">" 0.05 "the lab burned CPU"
diff=$(awk -v a="$cg" -v b="$proc" 'BEGIN { d = a - b; print (d < 0 ? -d : d) }')
assert_cmp "$diff" "<=" "$(awk -v b="$proc" 'BEGIN { print 0.02 + 0.1 * b }')" "the cgroup's CPU ($cg) is the lab's ($proc)"
n=$(jq --arg s "$spec" '[.intervals[] | select(.observed[$s].psi_cpu != null)] | length' r.json)
assert_cmp "$n" ">=" 2 "the cgroup's CPU pressure in (nearly) every one of the 3 intervals"
pass "real cgroup v2 ($dir): CPU $cg cores = the lab's $proc; pressure in $n of 3 intervals"
