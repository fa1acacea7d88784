// Anderson-Darling statistics and Stephens' critical values.
#include "stats/anderson_darling.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace openloop::stats {

std::string_view to_string(Level level) {
  switch (level) {
    case Level::p10:
      return "10 %";
    case Level::p05:
      return "5 %";
    case Level::p01:
      return "1 %";
  }
  return "?";
}

double anderson_darling(std::span<double> u) {
  const std::size_t n = u.size();
  if (n == 0) return 0;
  std::sort(u.begin(), u.end());
  constexpr double lo = 1e-300, hi = 1.0 - 0x1.0p-53;
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double a = std::clamp(u[i], lo, hi), b = std::clamp(u[n - 1 - i], lo, hi);
    sum += static_cast<double>(2 * i + 1) * (std::log(a) + std::log1p(-b));
  }
  const double dn = static_cast<double>(n);
  return -dn - sum / dn;
}

double critical_fully_specified(Level level) {
  switch (level) {
    case Level::p10:
      return 1.933;
    case Level::p05:
      return 2.492;
    case Level::p01:
      return 3.857;
  }
  return 2.492;
}

double critical_exponential_estimated(Level level) {
  switch (level) {
    case Level::p10:
      return 1.078;
    case Level::p05:
      return 1.341;
    case Level::p01:
      return 1.957;
  }
  return 1.341;
}

FitTest test_uniform(std::span<double> u, Level level) {
  FitTest t;
  t.n = u.size();
  t.level = level;
  t.critical = critical_fully_specified(level);
  if (t.n < 5) return t;
  t.statistic = anderson_darling(u);
  t.passed = t.statistic <= t.critical;
  return t;
}

FitTest test_uniform_exponential_estimated(std::span<double> u, Level level) {
  FitTest t;
  t.n = u.size();
  t.level = level;
  t.critical = critical_exponential_estimated(level);
  if (t.n < 5) return t;
  // Stephens' modification makes the critical values nearly independent of n.
  t.statistic = anderson_darling(u) * (1.0 + 0.6 / static_cast<double>(t.n));
  t.passed = t.statistic <= t.critical;
  return t;
}

namespace {
void transform_exponential(std::span<const double> gaps, double mean, std::vector<double>& u) {
  u.resize(gaps.size());
  // u = 1 − e^(−x/mean), computed as −expm1 so small gaps keep their precision.
  for (std::size_t i = 0; i < gaps.size(); ++i) u[i] = -std::expm1(-std::max(0.0, gaps[i]) / mean);
}
}  // namespace

FitTest test_exponential(std::span<const double> gaps, double mean, Level level,
                         std::vector<double>& scratch) {
  transform_exponential(gaps, mean, scratch);
  return test_uniform(scratch, level);
}

FitTest test_exponential_estimated(std::span<const double> gaps, Level level, std::vector<double>& scratch) {
  FitTest t;
  t.n = gaps.size();
  t.level = level;
  t.critical = critical_exponential_estimated(level);
  if (t.n < 5) return t;
  const double mean = std::accumulate(gaps.begin(), gaps.end(), 0.0) / static_cast<double>(t.n);
  if (!(mean > 0)) {
    t.statistic = INFINITY;
    t.passed = false;
    return t;
  }
  transform_exponential(gaps, mean, scratch);
  return test_uniform_exponential_estimated(scratch, level);
}

double erlang_cdf(unsigned k, double x) {
  if (!(x > 0)) return 0;
  if (k <= 1) return -std::expm1(-x);
  const double lx = std::log(x);
  const auto term = [&](unsigned i) {
    return std::exp(static_cast<double>(i) * lx - x - std::lgamma(i + 1.0));
  };
  if (x < static_cast<double>(k)) {
    // Below the mean, P itself as the Poisson tail e^(−x) Σ_{i≥k} xⁱ/i! (terms fall at least as fast as x/k),
    // so a small P keeps its precision instead of being 1 − (a number near 1).
    double p = 0;
    for (unsigned i = k; i < k + 10000; ++i) {
      const double t = term(i);
      p += t;
      if (t < 1e-17 * p) break;
    }
    return std::clamp(p, 0.0, 1.0);
  }
  // Above it, 1 − Q with Q = e^(−x) Σ_{i<k} xⁱ/i!, each term in logs so neither e^(−x) nor xⁱ/i! overflows.
  double q = 0;
  for (unsigned i = 0; i < k; ++i) q += term(i);
  return std::clamp(1.0 - q, 0.0, 1.0);
}

}  // namespace openloop::stats
