# compare's error rates against a real lab, 20 repetitions each, built from recorded runs: a 42-s run of one plan
# (after a 2-s warm-up: connections opening are not the steady state)
# is cut into seven 6-s blocks (its .hlog, 6 one-second intervals each) and 20 of the 21 pairs of blocks are
# compared: at most one may show a significant difference (95 % confidence). A 24-s run after the lab's service
# time was made 20 % longer (POST /_lab/config, same seed and plan) gives four blocks; each against five of the
# baseline's blocks (20 comparisons) must be flagged. p50 and p90 are compared: the tail of a 6-s block of a busy
# 2-core machine is its stalls.
source "$OPENLOOP_E2E_LIB"
cd "$E2E_TMP"

start_lab --workers 100 --service lognormal:20ms,0.3 --seed 11
run() {
  "$OPENLOOP" run "$LAB_URL/" --rate 300/s -d "$2" --warmup 2s --timeout 1s -q --json "$1" >"$1.txt" 2>&1 || true
}
run base.json 42s
curl -sS --max-time 5 -o /dev/null -X POST -d '{"service":"lognormal:24ms,0.3"}' "$LAB_URL/_lab/config"
run slow.json 24s
"$OPENLOOP" report base.json -f hlog -o base.hlog
"$OPENLOOP" report slow.json -f hlog -o slow.hlog

# blocks FILE PREFIX: PREFIX.1.hlog, PREFIX.2.hlog, ...: the header and 6 consecutive response-time intervals each.
blocks() {
  local n=0 k=0 line
  while IFS= read -r line; do
    if ((n % 6 == 0)); then
      k=$((k + 1))
      grep -E '^(#|")' "$1" >"$2.$k.hlog"
    fi
    echo "$line" >>"$2.$k.hlog"
    n=$((n + 1))
  done < <(grep '^Tag=response_time,' "$1")
}
blocks base.hlog b
blocks slow.hlog s
[[ -s b.7.hlog && -s s.4.hlog ]] || fail "blocks: $(ls)"

# flagged A B: 0 when compare finds a significant difference between the two files.
flagged() {
  "$OPENLOOP" compare "$1" "$2" --percentiles 50,90 -q --json c.json || fail "compare $1 $2 exit $?"
  echo "$1 vs $2: $(jq -r .finding c.json)" >>findings.txt
  [[ $(jq -r .significant c.json) == true ]]
}
same=0 pairs=0
for i in 1 2 3 4 5 6 7; do
  for j in 1 2 3 4 5 6 7; do
    ((j > i && pairs < 20)) || continue
    pairs=$((pairs + 1))
    if flagged "b.$i.hlog" "b.$j.hlog"; then same=$((same + 1)); fi
  done
done
[[ $pairs == 20 ]] || fail "pairs $pairs"
((same <= 1)) || fail "same plan, same lab: $same of 20 comparisons flagged: $(cat findings.txt)"
pass "same plan, same lab: $same of 20 comparisons flagged (at most 1 allowed)"

slow=0
for i in 1 2 3 4; do
  for j in 1 2 3 4 5; do
    if flagged "b.$j.hlog" "s.$i.hlog"; then slow=$((slow + 1)); fi
  done
done
((slow == 20)) || fail "lab 20 % slower: only $slow of 20 comparisons flagged: $(cat findings.txt)"
pass "lab 20 % slower: flagged in all 20 comparisons"
