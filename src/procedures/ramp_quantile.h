// Percentiles of a step's response times with distribution-free 95 % confidence intervals from order
// statistics.
#pragma once

#include <cstdint>
#include <optional>

#include "hdr/histogram.h"

namespace openloop::procedures {

/// One percentile of a histogram and its confidence interval. Values are nanoseconds, as recorded.
struct QuantileEstimate {
  double percentile = 0;   ///< e.g. 99.9
  std::int64_t count = 0;  ///< samples n
  std::int64_t value = 0;  ///< the histogram's value at the percentile (HdrHistogram semantics); 0 when n = 0
  /// Bounds of the interval: the values at ranks ⌊np − z·√(np(1−p))⌋ and ⌈np + z·√(np(1−p))⌉ (1-based) of the
  /// sorted samples. nullopt when that rank falls outside 1..n: too few samples to bound that side (a p99.9
  /// from 3,000 samples has no upper bound).
  std::optional<std::int64_t> low, high;
};

/// The value of the k-th smallest sample (1 ≤ k ≤ total_count) as the highest value equivalent to its bucket,
/// the convention of Histogram::value_at_percentile. Returns 0 for an empty histogram; k is clamped to 1..n.
std::int64_t value_at_rank(const hdr::Histogram& h, std::int64_t k);

/// Samples in buckets starting at or below `value` (the bucket holding `value` counts whole: resolution 0.1
/// %).
std::int64_t count_at_or_below(const hdr::Histogram& h, std::int64_t value);

/// `percentile` in (0, 100) with a confidence interval at the normal quantile `z` (1.96: 95 %). The interval
/// is exact in coverage up to the normal approximation of the binomial count of samples below the true
/// quantile (good once np(1−p) ≳ 5), widened by the histogram's bucket resolution (3 significant digits in
/// openloop).
QuantileEstimate estimate_quantile(const hdr::Histogram& h, double percentile, double z = 1.96);

}  // namespace openloop::procedures
