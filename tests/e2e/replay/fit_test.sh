# openloop trace fit: a plan fitted to a synthetic trace (Poisson at 200/s, three endpoints, Zipf keys in a path
# segment and a query parameter) passes validate, gives the keys' exponent back, and run against the lab sends the
# trace's rate and mix (the run's request log read back with trace inspect); a ramped trace becomes stages whose
# rate follows it, twice as high with --rate-scale 2; bad input is refused with exit 2 and nothing written.
# e2e: parallel-safe (counts, mix and rates read from intended times, not from when requests went out)
source "$OPENLOOP_E2E_LIB"
require_tools jq awk
# trace SECONDS RATE RAMP SEED: canonical JSONL, Poisson arrivals at RATE (RAMP=1: from RATE/5 to RATE·9/5), 70 %
# GET /item/<zipf(300, 1.1)>, 20 % GET /search?q=<zipf(50, 0.8)>&page=1, 10 % POST /cart with a 100-byte body.
trace() {
  awk -v span="$1" -v rate="$2" -v ramp="$3" -v seed="$4" '
    function table(c, n, s,   k, t, a) { t = 0; for (k = 1; k <= n; k++) t += k ^ -s
      a = 0; for (k = 1; k <= n; k++) { a += k ^ -s / t; c[k] = a } }
    function draw(c, n,   u, lo, hi, mid) { u = rand(); lo = 1; hi = n
      while (lo < hi) { mid = int((lo + hi) / 2); if (c[mid] < u) lo = mid + 1; else hi = mid } return lo }
    BEGIN { srand(seed); table(items, 300, 1.1); table(queries, 50, 0.8); body = sprintf("%100s", ""); gsub(/ /, "y", body)
      t = 0
      while (1) { r = ramp ? rate * (0.2 + 1.6 * t / span) : rate; t += -log(1 - rand()) / r; if (t > span) break
        u = rand()
        if (u < 0.7) printf "{\"t\": %.6f, \"url\": \"/item/%d\"}\n", t, draw(items, 300)
        else if (u < 0.9) printf "{\"t\": %.6f, \"url\": \"/search?q=%d&page=1\"}\n", t, draw(queries, 50)
        else printf "{\"t\": %.6f, \"method\": \"POST\", \"url\": \"/cart\", \"body\": \"%s\"}\n", t, body } }'
}
trace 8 200 0 5 >"$E2E_TMP/c.jsonl"
records=$(wc -l <"$E2E_TMP/c.jsonl")
start_lab
"$OPENLOOP" trace fit "$E2E_TMP/c.jsonl" -o "$E2E_TMP/c.yaml" --target "$LAB_URL" --key-param q >"$E2E_TMP/f.txt" 2>&1 ||
  fail "fit exit $?: $(cat "$E2E_TMP/f.txt")"
"$OPENLOOP" validate "$E2E_TMP/c.yaml" >"$E2E_TMP/v.txt" 2>&1 || fail "validate exit $?: $(cat "$E2E_TMP/v.txt") $(cat "$E2E_TMP/c.yaml")"
grep -q 'arrival: poisson' "$E2E_TMP/c.yaml" || fail "a Poisson trace fitted as Poisson: $(cat "$E2E_TMP/c.yaml")"
! grep -q 'stages:' "$E2E_TMP/c.yaml" || fail "a constant-rate trace fitted as stages: $(cat "$E2E_TMP/c.yaml")"
grep -q 'path: "/item/{{item_key}}"' "$E2E_TMP/c.yaml" || fail "the path's key as a variable: $(cat "$E2E_TMP/c.yaml")"
grep -q 'path: "/search?q={{q_key}}"' "$E2E_TMP/c.yaml" || fail "the parameter's key as a variable: $(cat "$E2E_TMP/c.yaml")"
s=$(sed -nE 's/^  item_key: zipf\([0-9]+, ([0-9.]+)\).*/\1/p' "$E2E_TMP/c.yaml")
# About 1,100 draws over 300 keys: the fit's N is the keys seen, and its exponent within 0.15 of the trace's.
assert_near "$s" 1.1 0.15 "the path keys' Zipf exponent fitted"
s=$(sed -nE 's/^  q_key: zipf\([0-9]+, ([0-9.]+)\).*/\1/p' "$E2E_TMP/c.yaml")
assert_near "$s" 0.8 0.15 "the parameter keys' Zipf exponent fitted"
pass "a plan fitted to a Poisson trace: validate accepts it, its keys are Zipf variables with the trace's exponents"

code=0
"$OPENLOOP" run "$E2E_TMP/c.yaml" --json "$E2E_TMP/r.json" --log-requests "$E2E_TMP/r.log" >"$E2E_TMP/r.txt" 2>&1 || code=$?
accept_invalid_only_for "$code" "$E2E_TMP/r.json" 'send lateness'
assert_conserved "$E2E_TMP/r.json"
# The run's request log as a trace (its intended times, each request's name as its path), inspected as the trace is.
inspect_log() {  # LOG OUT
  # Times from the first intended one: whole seconds of the run, not of the wall clock.
  jq -s -c '(map(.intended_s) | min) as $t0 | .[] | {t: (.intended_s - $t0), url: ("/" + .request)}' "$1" \
    >"$E2E_TMP/log.jsonl"
  "$OPENLOOP" trace inspect "$E2E_TMP/log.jsonl" --json "$2" -q || fail "inspect of the run's log exit $?"
}
inspect_log "$E2E_TMP/r.log" "$E2E_TMP/ri.json"
"$OPENLOOP" trace inspect "$E2E_TMP/c.jsonl" --json "$E2E_TMP/ti.json" -q --key-param q || fail "inspect of the trace exit $?"
# inspect's key popularity is the fit's: the same exponents (to the plan's three decimals).
assert_near "$(json "$E2E_TMP/ti.json" '.keys[] | select(.place == "segment 2") | .zipf.s')" \
  "$(sed -nE 's/^  item_key: zipf\([0-9]+, ([0-9.]+)\).*/\1/p' "$E2E_TMP/c.yaml")" 0.0005 "inspect's Zipf exponent of the path keys"
assert_near "$(json "$E2E_TMP/ti.json" '.keys[] | select(.place == "parameter q") | .zipf.s')" \
  "$(sed -nE 's/^  q_key: zipf\([0-9]+, ([0-9.]+)\).*/\1/p' "$E2E_TMP/c.yaml")" 0.0005 "inspect's Zipf exponent of the parameter keys"
sent=$(json "$E2E_TMP/ri.json" .records)
# The plan's count is Poisson around the trace's: within 4 standard deviations (sqrt(1600) = 40).
assert_near "$sent" "$records" "$(awk -v n="$records" 'BEGIN { print 4 * sqrt(n) }')" "the run sent the trace's count"
assert_near "$(json "$E2E_TMP/ri.json" .mean_rate_per_s)" "$(json "$E2E_TMP/ti.json" .mean_rate_per_s)" 20 \
  "the run's mean rate is the trace's (inspect, records/s)"
for name in get_item_n:/item/ get_search:/search post_cart:/cart; do
  want=$(json "$E2E_TMP/ti.json" "[.endpoints[] | select(.endpoint | startswith(\"GET ${name#*:}\") or startswith(\"POST ${name#*:}\")) | .records] | add / $records")
  got=$(json "$E2E_TMP/ri.json" "[.endpoints[] | select(.endpoint == \"GET /${name%%:*}\") | .records] | add / $sent")
  # A binomial share of ~1,600: 4 standard deviations of the larger share are 0.046.
  assert_near "$got" "$want" 0.05 "the run's share of ${name%%:*} is the trace's"
done
pass "the fitted plan run against the lab: the trace's count, rate and mix"

# A ramp from 40/s to 360/s over 8 s, fitted at twice its rate: stages; validate expects twice the records; the run's
# second half sends about 2.3 times its first, as the trace does.
trace 8 200 1 6 >"$E2E_TMP/ramp.jsonl"
ramp_records=$(wc -l <"$E2E_TMP/ramp.jsonl")
"$OPENLOOP" trace fit "$E2E_TMP/ramp.jsonl" -o "$E2E_TMP/ramp.yaml" --target "$LAB_URL" --rate-scale 2 >"$E2E_TMP/f2.txt" 2>&1 ||
  fail "fit exit $?: $(cat "$E2E_TMP/f2.txt")"
grep -q 'stages:' "$E2E_TMP/ramp.yaml" || fail "a ramp fitted as stages: $(cat "$E2E_TMP/ramp.yaml")"
grep -q 'rates scaled by 2' "$E2E_TMP/f2.txt" || fail "fit says the scale: $(cat "$E2E_TMP/f2.txt")"
"$OPENLOOP" validate "$E2E_TMP/ramp.yaml" >"$E2E_TMP/v2.txt" 2>&1 || fail "validate exit $?: $(cat "$E2E_TMP/v2.txt")"
planned=$(sed -nE 's/.*~([0-9]+) in all.*/\1/p' "$E2E_TMP/v2.txt")
assert_near "$planned" "$((2 * ramp_records))" "$(awk -v n="$ramp_records" 'BEGIN { print 0.05 * 2 * n }')" \
  "the ramp's plan expects twice its records"
code=0
"$OPENLOOP" run "$E2E_TMP/ramp.yaml" --json "$E2E_TMP/r2.json" --log-requests "$E2E_TMP/r2.log" >"$E2E_TMP/r2.txt" 2>&1 || code=$?
accept_invalid_only_for "$code" "$E2E_TMP/r2.json" 'send lateness'
inspect_log "$E2E_TMP/r2.log" "$E2E_TMP/r2i.json"
"$OPENLOOP" trace inspect "$E2E_TMP/ramp.jsonl" --json "$E2E_TMP/t2i.json" -q || fail "inspect of the ramp exit $?"
half() {  # FILE FROM TO: mean records per second over seconds [FROM, TO) of the inspect's series
  json "$1" "[.rate_per_second[$2:$3][]] | add / length"
}
# The ramp's second half over its first: 1.4 / 0.6 = 2.33 in theory; the trace's own (about 500 and 1,100 records,
# a standard deviation of 0.13) and the run's (twice the records) within 0.7 of each other (4 standard deviations
# of their difference).
trace_ratio=$(awk -v a="$(half "$E2E_TMP/t2i.json" 4 8)" -v b="$(half "$E2E_TMP/t2i.json" 0 4)" 'BEGIN { print a / b }')
run_ratio=$(awk -v a="$(half "$E2E_TMP/r2i.json" 4 8)" -v b="$(half "$E2E_TMP/r2i.json" 0 4)" 'BEGIN { print a / b }')
assert_near "$run_ratio" "$trace_ratio" 0.7 "the run's second half over its first, as the trace's"
assert_cmp "$run_ratio" ">" 1.6 "the run ramps"
assert_near "$(json "$E2E_TMP/r2i.json" .mean_rate_per_s)" \
  "$(awk -v r="$(json "$E2E_TMP/t2i.json" .mean_rate_per_s)" 'BEGIN { print 2 * r }')" 40 "twice the ramp's mean rate"
pass "a ramp fitted as stages at twice its rate, run with the trace's shape"

# Bad input: exit 2, the input named, nothing written.
expect_fit_usage() {  # message, then fit's arguments
  local want=$1 code=0
  shift
  "$OPENLOOP" trace fit "$@" >"$E2E_TMP/out.txt" 2>&1 || code=$?
  [[ $code == 2 ]] || fail "'trace fit $*' exit $code, expected 2: $(cat "$E2E_TMP/out.txt")"
  grep -qF -- "$want" "$E2E_TMP/out.txt" || fail "'trace fit $*' message lacks '$want': $(cat "$E2E_TMP/out.txt")"
  [[ ! -e $E2E_TMP/bad.yaml ]] || fail "'trace fit $*' wrote its output"
}
printf '{"t": 1, "url": "/"}\n' >"$E2E_TMP/one.jsonl"
printf '{"t": 1, "url": "/"}\n{"t": 2, "url": "nope"}\n' >"$E2E_TMP/bad.jsonl"
expect_fit_usage 'at least two records' "$E2E_TMP/one.jsonl" -o "$E2E_TMP/bad.yaml"
expect_fit_usage 'bad.jsonl:2' "$E2E_TMP/bad.jsonl" -o "$E2E_TMP/bad.yaml"
expect_fit_usage '--top 0' "$E2E_TMP/c.jsonl" -o "$E2E_TMP/bad.yaml" --top 0
expect_fit_usage '--rate-scale' "$E2E_TMP/c.jsonl" -o "$E2E_TMP/bad.yaml" --rate-scale -1
expect_fit_usage '--window' "$E2E_TMP/c.jsonl" -o "$E2E_TMP/bad.yaml" --window 10ms
expect_fit_usage '--target' "$E2E_TMP/c.jsonl" -o "$E2E_TMP/bad.yaml" --target ftp://x
pass "bad input refused with exit 2 and nothing written"
