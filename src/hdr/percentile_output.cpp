// Percentile iteration (Java's PercentileIterator over AbstractHistogramIterator) and .hgrm formatting.
#include "hdr/percentile_output.h"

#include <cmath>
#include <limits>

#include "hdr/java_format.h"

namespace openloop::hdr {

namespace {

// Java: ticks = ticksPerHalf · 2^(floor(log2(100 / (100 − level))) + 1); level += 100 / ticks.
double next_level(double level, int ticks_per_half_distance) {
  const double halvings = std::log(100.0 / (100.0 - level)) / std::log(2.0);
  if (!(halvings < 62.0)) return std::numeric_limits<double>::infinity();  // at (or past) 100: no more steps
  const auto exponent = static_cast<std::int64_t>(halvings) + 1;
  const auto ticks = static_cast<std::int64_t>(ticks_per_half_distance) *
                     static_cast<std::int64_t>(std::pow(2.0, static_cast<double>(exponent)));
  return level + 100.0 / static_cast<double>(ticks);
}

}  // namespace

std::vector<PercentileRow> percentile_spectrum(const Histogram& h, int ticks_per_half_distance) {
  std::vector<PercentileRow> rows;
  const std::int64_t total = h.total_count();
  if (total <= 0) return rows;
  const int ticks = ticks_per_half_distance < 1 ? 1 : ticks_per_half_distance;
  const std::int32_t length = h.counts_length();

  double level = 0.0;
  std::int32_t index = 0;
  std::int64_t cumulative = 0;
  bool fresh_bucket = true;  // the bucket at `index` has not been added to `cumulative` yet
  bool final_row = false;
  while (true) {
    if (cumulative >= total) {
      // Java's one extra step: the last recorded bucket again, at level 100.
      if (final_row) break;
      final_row = true;
      level = 100.0;
    }
    bool reported = false;
    while (index < length) {
      const std::int64_t count = h.count_at_index(index);
      if (fresh_bucket) {
        cumulative += count;
        fresh_bucket = false;
      }
      if (count != 0 && (100.0 * static_cast<double>(cumulative)) / static_cast<double>(total) >= level) {
        rows.push_back({h.highest_equivalent(h.value_from_index(index)), level, cumulative});
        if (!final_row) level = next_level(level, ticks);
        reported = true;
        break;
      }
      ++index;
      fresh_bucket = true;
    }
    if (!reported) break;  // counts exhausted (only reachable with inconsistent totals)
  }
  return rows;
}

std::string percentile_distribution(const Histogram& h, const PercentileOutputOptions& options) {
  const int digits = h.significant_digits();
  const double ratio = options.value_unit_scaling_ratio;
  std::string out;
  if (options.csv) {
    out += "\"Value\",\"Percentile\",\"TotalCount\",\"1/(1-Percentile)\"\n";
  } else {
    out += "       Value     Percentile TotalCount 1/(1-Percentile)\n\n";
  }
  for (const PercentileRow& row : percentile_spectrum(h, options.ticks_per_half_distance)) {
    const double value = static_cast<double>(row.value) / ratio;
    const double fraction = row.percentile_level / 100.0;
    const bool last = row.percentile_level == 100.0;
    if (options.csv) {
      out += java_fixed(value, digits) + "," + java_fixed(fraction, 12) + "," +
             std::to_string(row.total_count) + "," +
             (last ? std::string("Infinity") : java_fixed(1.0 / (1.0 - fraction), 2)) + "\n";
    } else {
      out += java_fixed(value, digits, 12) + " " + java_fixed(fraction, 12, 2) + " " +
             java_int(row.total_count, 10);
      if (!last) out += " " + java_fixed(1.0 / (1.0 - fraction), 2, 14);
      out += "\n";
    }
  }
  if (!options.csv) {
    out += "#[Mean    = " + java_fixed(h.mean() / ratio, digits, 12) +
           ", StdDeviation   = " + java_fixed(h.stddev() / ratio, digits, 12) + "]\n";
    out += "#[Max     = " + java_fixed(static_cast<double>(h.max()) / ratio, digits, 12) +
           ", Total count    = " + java_int(h.total_count(), 12) + "]\n";
    out += "#[Buckets = " + java_int(h.bucket_count(), 12) +
           ", SubBuckets     = " + java_int(h.sub_bucket_count(), 12) + "]\n";
  }
  return out;
}

}  // namespace openloop::hdr
