// Tests for ZipfDistribution: ranks follow the rank-frequency law (chi-square goodness of fit on a fixed
// seed).
#include "workload/zipf.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

using namespace openloop;
using namespace openloop::workload;

namespace {

// Upper-tail standard normal quantile: the z with P(Z > z) = alpha, by bisection on erfc.
double normal_upper_quantile(double alpha) {
  double lo = 0, hi = 10;
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2;
    if (0.5 * std::erfc(mid / std::sqrt(2.0)) > alpha) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return (lo + hi) / 2;
}

// Critical value of the chi-square distribution with `df` degrees of freedom at upper-tail probability
// `alpha` (Wilson–Hilferty: accurate to well under 1 % for the df ≥ 30 used here).
double chi_square_critical(double df, double alpha) {
  const double z = normal_upper_quantile(alpha);
  const double c = 2.0 / (9.0 * df);
  return df * std::pow(1.0 - c + z * std::sqrt(c), 3);
}

struct Fit {
  double statistic = 0;
  double critical = 0;
};

// Pearson's chi-square of `counts` (index k = rank k, 1..n) against Zipf(n, s); bins with an expectation
// below 5 are pooled with the tail.
Fit chi_square_against(const std::vector<std::uint64_t>& counts, std::uint64_t n, double s) {
  double h = 0;
  for (std::uint64_t k = 1; k <= n; ++k) h += std::pow(static_cast<double>(k), -s);
  double total = 0;
  for (std::uint64_t k = 1; k <= n; ++k) total += static_cast<double>(counts[k]);
  Fit fit;
  int bins = 0;
  double pooled_expected = 0, pooled_observed = 0;
  for (std::uint64_t k = 1; k <= n; ++k) {
    const double expected = total * std::pow(static_cast<double>(k), -s) / h;
    if (expected < 5) {
      pooled_expected += expected;
      pooled_observed += static_cast<double>(counts[k]);
      continue;
    }
    const double d = static_cast<double>(counts[k]) - expected;
    fit.statistic += d * d / expected;
    ++bins;
  }
  if (pooled_expected > 0) {
    const double d = pooled_observed - pooled_expected;
    fit.statistic += d * d / pooled_expected;
    ++bins;
  }
  fit.critical = chi_square_critical(bins - 1, 0.001);
  return fit;
}

std::vector<std::uint64_t> draw(std::uint64_t n, double s, int samples, std::uint64_t seed) {
  const ZipfDistribution zipf(n, s);
  Rng rng(seed);
  std::vector<std::uint64_t> counts(n + 1, 0);
  for (int i = 0; i < samples; ++i) {
    const std::uint64_t k = zipf.sample(rng);
    EXPECT_GE(k, 1U);
    EXPECT_LE(k, n);
    if (k >= 1 && k <= n) ++counts[k];
  }
  return counts;
}

}  // namespace

TEST(Zipf, CriticalValueMatchesTheTabulatedChiSquareQuantile) {
  // Tables: χ²(0.999; 100) = 149.449, χ²(0.999; 50) = 86.661.
  EXPECT_NEAR(chi_square_critical(100, 0.001), 149.449, 0.5);
  EXPECT_NEAR(chi_square_critical(50, 0.001), 86.661, 0.5);
}

TEST(Zipf, RanksFollowTheRankFrequencyLawForSeveralExponents) {
  for (double s : {0.6, 1.0, 1.1, 2.0}) {
    const auto counts = draw(200, s, 400000, 11);
    const Fit fit = chi_square_against(counts, 200, s);
    EXPECT_LT(fit.statistic, fit.critical) << "s = " << s;
  }
}

TEST(Zipf, GoodnessOfFitRejectsAWrongExponent) {
  const auto counts = draw(200, 1.1, 400000, 11);
  for (double wrong : {1.0, 1.05, 1.15, 1.2}) {
    const Fit fit = chi_square_against(counts, 200, wrong);
    EXPECT_GT(fit.statistic, fit.critical) << "s = " << wrong;
  }
}

TEST(Zipf, RankOneHasItsShareOfTheTrafficForALargeKeySpace) {
  // n = 10^9 needs no table; P(1) = 1 / H(n, s), with H(10^9, 1.1) ≈ ζ(1.1) − 10^(−0.9)/0.1 ≈ 10.584 − 1.259.
  const auto n = std::uint64_t{1'000'000'000};
  const ZipfDistribution zipf(n, 1.1);
  Rng rng(5);
  int ones = 0;
  const int samples = 400000;
  for (int i = 0; i < samples; ++i) {
    const std::uint64_t k = zipf.sample(rng);
    ASSERT_GE(k, 1U);
    ASSERT_LE(k, n);
    ones += k == 1 ? 1 : 0;
  }
  EXPECT_NEAR(static_cast<double>(ones) / samples, 1.0 / (10.5844 - 1.2589), 0.002);
}

TEST(Zipf, ASingleKeyIsAlwaysRankOne) {
  const ZipfDistribution zipf(1, 1.1);
  Rng rng(1);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(zipf.sample(rng), 1U);
}

TEST(Zipf, SameSeedGivesTheSameRanks) {
  const ZipfDistribution zipf(10000, 1.1);
  Rng a(3, 1), b(3, 1);
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(zipf.sample(a), zipf.sample(b));
}
