// Order-statistic confidence intervals: the binomial count of samples below a quantile, in its normal form,
// its variance taken on the effective sample size.
#include "stats/quantile_ci.h"

#include <algorithm>
#include <cmath>

namespace openloop::stats {

std::optional<double> QuantileEstimate::relative_half_width() const {
  if (!low || !high || value <= 0) return std::nullopt;
  const double up = static_cast<double>(*high - value), down = static_cast<double>(value - *low);
  return std::max(up, down) / static_cast<double>(value);
}

std::int64_t value_at_rank(const hdr::Histogram& h, std::int64_t k) {
  const std::int64_t n = h.total_count();
  if (n == 0) return 0;
  k = std::clamp<std::int64_t>(k, 1, n);
  std::int64_t seen = 0;
  for (std::int32_t i = 0, used = h.used_length(); i < used; ++i) {
    seen += h.count_at_index(i);
    if (seen >= k) return h.highest_equivalent(h.value_from_index(i));
  }
  return h.max();
}

std::int64_t count_at_or_below(const hdr::Histogram& h, std::int64_t value) {
  std::int64_t seen = 0;
  for (std::int32_t i = 0, used = h.used_length(); i < used && h.value_from_index(i) <= value; ++i)
    seen += h.count_at_index(i);
  return seen;
}

QuantileEstimate estimate_quantile(const hdr::Histogram& h, double percentile, double z,
                                   double effective_count) {
  QuantileEstimate q;
  q.percentile = percentile;
  q.count = h.total_count();
  const double n = static_cast<double>(q.count);
  q.effective_count = effective_count > 0 && effective_count < n ? effective_count : n;
  if (q.count == 0) return q;
  q.value = h.value_at_percentile(percentile);
  const double p = percentile / 100.0;
  // The count of samples below the true quantile has variance n_eff·p(1−p) in units of effective samples;
  // each effective sample stands for n / n_eff real ones, so in ranks its spread is n·√(p(1−p)/n_eff).
  const double centre = n * p, spread = z * n * std::sqrt(p * (1.0 - p) / q.effective_count);
  // A tiny epsilon keeps exact products (n·p = 990.0000000001) from moving a rank by one.
  const auto lo = static_cast<std::int64_t>(std::floor(centre - spread + 1e-9));
  const auto hi = static_cast<std::int64_t>(std::ceil(centre + spread - 1e-9));
  if (lo >= 1) q.low = value_at_rank(h, lo);
  if (hi <= q.count) q.high = value_at_rank(h, hi);
  return q;
}

double effective_samples_to_bound(double percentile, double z, std::int64_t count) {
  const double p = percentile / 100.0;
  if (!(p > 0 && p < 1)) return 0;
  const double upper = z * z * p / (1.0 - p);
  const double margin = p - (count > 0 ? 1.0 / static_cast<double>(count) : 0.0);
  const double lower = margin > 0 ? z * z * p * (1.0 - p) / (margin * margin) : upper;
  return std::max(upper, lower);
}

}  // namespace openloop::stats
