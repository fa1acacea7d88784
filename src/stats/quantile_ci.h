// Percentiles of a histogram with distribution-free confidence intervals from order statistics, on the sample
// size or on an effective sample size when the samples are correlated.
#pragma once

#include <cstdint>
#include <optional>

#include "hdr/histogram.h"

namespace openloop::stats {

/// One percentile of a histogram and its confidence interval. Values are nanoseconds, as recorded.
struct QuantileEstimate {
  double percentile = 0;   ///< e.g. 99.9
  std::int64_t count = 0;  ///< samples n
  /// The sample size the interval was computed on: n for independent samples, less when they are correlated
  /// (see autocorrelation.h). Equal to `count` unless given.
  double effective_count = 0;
  std::int64_t value = 0;  ///< the histogram's value at the percentile (HdrHistogram semantics); 0 when n = 0
  /// Bounds of the interval: the values at ranks ⌊np − z·n·√(p(1−p)/n_eff)⌋ and ⌈np + z·n·√(p(1−p)/n_eff)⌉
  /// (1-based) of the sorted samples (with n_eff = n: the textbook ⌊np ∓ z·√(np(1−p))⌋). nullopt when that
  /// rank falls outside 1..n: too few samples to bound that side (a p99.9 from 3,000 samples has no upper
  /// bound).
  std::optional<std::int64_t> low, high;
  /// The interval's larger half-width relative to the value ((high − value) or (value − low), over value);
  /// nullopt when a side is missing or the value is 0.
  std::optional<double> relative_half_width() const;
};

/// The value of the k-th smallest sample (1 ≤ k ≤ total_count) as the highest value equivalent to its bucket,
/// the convention of Histogram::value_at_percentile. Returns 0 for an empty histogram; k is clamped to 1..n.
std::int64_t value_at_rank(const hdr::Histogram& h, std::int64_t k);

/// Samples in buckets starting at or below `value` (the bucket holding `value` counts whole: resolution 0.1
/// %).
std::int64_t count_at_or_below(const hdr::Histogram& h, std::int64_t value);

/// `percentile` in (0, 100) with a confidence interval at the normal quantile `z` (1.96: 95 %). The interval
/// is exact in coverage up to the normal approximation of the binomial count of samples below the true
/// quantile (good once n_eff·p(1−p) ≳ 5), widened by the histogram's bucket resolution (3 significant digits
/// in openloop). `effective_count` in (0, n] is the sample size the variance of that count is taken from
/// (correlated samples carry less information than their number: autocorrelation.h); 0 or anything above n
/// means n (independent samples).
QuantileEstimate estimate_quantile(const hdr::Histogram& h, double percentile, double z = 1.96,
                                   double effective_count = 0);

/// The effective sample size at which both sides of `percentile`'s interval exist at `z` with `count` samples
/// (the ranks of estimate_quantile inside 1..n): at least z²·p/(1−p) for the upper side and z²·p(1−p)/(p − 1/n)²
/// for the lower. A run whose samples are correlated keeps its effective share as it grows, so
/// needed / effective_count is how many times longer it must run to bound the percentile.
double effective_samples_to_bound(double percentile, double z, std::int64_t count);

}  // namespace openloop::stats
