#!/usr/bin/env bash
# Java interop check: the reference HdrHistogram reads our .hlog and must print our .hgrm byte for byte,
# and must decode our V2 (and hand-built V1/V0) encodings to the same statistics and re-encode them to
# the same bytes. Exit 0 pass, 1 mismatch, 77 skipped (no java/javac/jar).
set -euo pipefail
gen=$1 jar=$2 java_src=$3 work=$4

for tool in java javac; do
  command -v "$tool" > /dev/null || { echo "SKIP: $tool not found"; exit 77; }
done
[[ -f $jar ]] || { echo "SKIP: $jar not found"; exit 77; }

rm -rf "$work" && mkdir -p "$work/classes"
"$gen" "$work"

status=0
while IFS='|' read -r name tag ratio csv; do
  args=(-i "$work/data.hlog" -outputValueUnitRatio "$ratio")
  [[ -n $tag ]] && args+=(-tag "$tag")
  [[ -n $csv ]] && args+=("$csv")
  java -Duser.timezone=UTC -cp "$jar" org.HdrHistogram.HistogramLogProcessor "${args[@]}" > "$work/java_$name.hgrm"
  if diff -u "$work/expected_$name.hgrm" "$work/java_$name.hgrm" > "$work/diff_$name.txt"; then
    echo "ok: .hgrm for series '$name' is byte-identical ($(wc -l < "$work/java_$name.hgrm") lines)"
  else
    echo "FAIL: .hgrm for series '$name' differs from HistogramLogProcessor:"; head -40 "$work/diff_$name.txt"
    status=1
  fi
done < "$work/runs.txt"

javac -d "$work/classes" -cp "$jar" "$java_src"
java -cp "$jar:$work/classes" InteropCheck "$work/summary_input.txt" > "$work/java_summary.txt"
if diff -u "$work/expected_summary.txt" "$work/java_summary.txt" > "$work/diff_summary.txt"; then
  echo "ok: $(wc -l < "$work/java_summary.txt") histograms decode to identical statistics and re-encode identically"
else
  echo "FAIL: the reference decodes our encodings differently:"; head -40 "$work/diff_summary.txt"
  status=1
fi
exit $status
