# --hlog writes an HdrHistogram interval log (1.3) that the Java reference reads back with the same total count,
# percentiles, mean and max as openloop's own results, and `openloop report --format hgrm` (from the results file
# and from the .hlog) prints exactly what Java's HistogramLogProcessor prints for it.
# e2e: parallel-safe (Java reads the same histograms back)
source "$OPENLOOP_E2E_LIB"
jar=/usr/share/java/hdrhistogram.jar
command -v java >/dev/null || { echo "SKIP: java is not installed (scripts/install-deps)"; exit 77; }
[[ -f $jar ]] || { echo "SKIP: $jar is missing (libhdrhistogram-java)"; exit 77; }
port=$(free_port)
start_nginx "$port"
cd "$E2E_TMP"
code=0
"$OPENLOOP" run "http://127.0.0.1:$port/" --rate 300/s --duration 3s --threads 1 --json r.json --hlog r.hlog -q \
  >/dev/null || code=$?
accept_invalid_only_for "$code" r.json '^send lateness'  # the generator's own lateness on a busy box
intervals=$(json r.json '.intervals | length')
grep -qxF '#[Histogram log format version 1.3]' r.hlog || fail "format version line"
grep -q '^#\[StartTime: [0-9]*\.[0-9]\{3\} (seconds since epoch), ' r.hlog || fail "StartTime line"
for tag in response_time service_time send_lateness; do
  assert_cmp "$(grep -c "^Tag=$tag," r.hlog)" == "$intervals" "one $tag line per interval"
done

# value_at LEVEL FILE: the value of the spectrum row at that percentile level (0.500000000000 ...).
value_at() { awk -v level="$1" '$2 == level { print $1; exit }' "$2"; }
near() { assert_near "$1" "$2" 0.0011 "$3: Java's $1 vs openloop's $2"; }
for tag in response_time service_time send_lateness; do
  java -Duser.timezone=UTC -cp "$jar" org.HdrHistogram.HistogramLogProcessor -i r.hlog -tag "$tag" >"java_$tag.hgrm"
  grep -q 'Total count' "java_$tag.hgrm" || fail "Java printed no distribution for $tag: $(head -3 "java_$tag.hgrm")"
  "$OPENLOOP" report r.json --format hgrm --tag "$tag" >"ours_$tag.hgrm"
  diff -u "java_$tag.hgrm" "ours_$tag.hgrm" >"diff_$tag.txt" || fail "hgrm from r.json differs from Java's: $(head -20 "diff_$tag.txt")"
  "$OPENLOOP" report r.hlog --format hgrm --histogram "$tag" | cmp -s - "java_$tag.hgrm" || fail "hgrm from r.hlog differs"
  s=".summary.${tag}_ms"
  total=$(sed -n 's/.*Total count *= *\([0-9]*\)\]/\1/p' "java_$tag.hgrm")
  assert_cmp "$total" == "$(json r.json "$s.count")" "$tag: Java's total count equals openloop's"
  near "$(value_at 0.500000000000 "java_$tag.hgrm")" "$(json r.json "$s.p50")" "$tag p50"
  near "$(value_at 0.900000000000 "java_$tag.hgrm")" "$(json r.json "$s.p90")" "$tag p90"
  near "$(sed -n 's/^#\[Max *= *\([0-9.]*\),.*/\1/p' "java_$tag.hgrm")" "$(json r.json "$s.max")" "$tag max"
  near "$(sed -n 's/^#\[Mean *= *\([0-9.]*\),.*/\1/p' "java_$tag.hgrm")" "$(json r.json "$s.mean")" "$tag mean"
  # p99 is not a row of the 5-ticks spectrum: it lies between the rows around level 0.99.
  below=$(awk '$2 < 0.99 && NF == 4 { v = $1 } END { print v }' "java_$tag.hgrm")
  above=$(awk '$2 >= 0.99 && NF >= 3 && $1 ~ /^[0-9]/ { print $1; exit }' "java_$tag.hgrm")
  p99=$(json r.json "$s.p99")
  if ! is_number "$below" || ! is_number "$above"; then fail "$tag: no spectrum rows around 99 % ('$below', '$above')"; fi
  assert_cmp "$p99" ">=" "$(awk -v v="$below" 'BEGIN { print v - 0.0011 }')" "$tag p99 above the row below 99%"
  assert_cmp "$p99" "<=" "$(awk -v v="$above" 'BEGIN { print v + 0.0011 }')" "$tag p99 below the row at/after 99%"
done
pass "Java reads the .hlog: counts and percentiles match; .hgrm byte-identical to HistogramLogProcessor"
