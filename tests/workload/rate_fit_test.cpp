// The rate fit: a constant rate (paced or Poisson) is one rate with the right arrivals, a ramp is stages
// whose windows follow it, the ragged ends of a trace are merged, a trend does not read as burstiness.
#include "workload/rate_fit.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace openloop::workload {
namespace {

std::vector<std::uint64_t> poisson_counts(int seconds, double rate_from, double rate_to, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> out;
  for (int i = 0; i < seconds; ++i) {
    const double rate = rate_from + (rate_to - rate_from) * (i + 0.5) / seconds;
    out.push_back(std::poisson_distribution<std::uint64_t>(rate)(rng));
  }
  return out;
}

TEST(RateFit, PacedConstantRateIsConstantArrivals) {
  const std::vector<std::uint64_t> paced(30, 100);
  const RateFit fit = fit_rate(paced, 1.0, 1.0);
  EXPECT_FALSE(fit.varies);
  EXPECT_TRUE(fit.dispersion_known);
  EXPECT_NEAR(fit.dispersion, 0.0, 1e-12);
  EXPECT_FALSE(fit.poisson);
  EXPECT_DOUBLE_EQ(fit.mean_rate, 100.0);
  EXPECT_DOUBLE_EQ(fit.span_s, 30.0);
  EXPECT_EQ(fit.window_s, 2.0) << "200 records a window at 100/s";
}

TEST(RateFit, PoissonConstantRateIsPoissonAndConstant) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const RateFit fit = fit_rate(poisson_counts(120, 200, 200, seed), 1.0, 1.0);
    EXPECT_FALSE(fit.varies) << "seed " << seed << ": worst window " << fit.worst_deviation;
    EXPECT_TRUE(fit.poisson);
    EXPECT_NEAR(fit.dispersion, 1.0, 0.35) << seed;
  }
}

TEST(RateFit, RampIsStagesThatFollowIt) {
  // 50/s to 250/s over 60 s: windows of 2 s, each mean within 4 Poisson standard deviations of the ramp at
  // its midpoint.
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const RateFit fit = fit_rate(poisson_counts(60, 50, 250, seed), 1.0, 1.0);
    EXPECT_TRUE(fit.varies);
    EXPECT_TRUE(fit.poisson);
    EXPECT_NEAR(fit.dispersion, 1.0, 0.6) << "seed " << seed << ": the ramp's slope is not burstiness";
    ASSERT_EQ(fit.windows.size(), 30U);
    EXPECT_EQ(fit.window_s, 2.0);
    for (const RateWindow& w : fit.windows) {
      const double want = 50 + 200 * (w.start_s + w.length_s / 2) / 60;
      EXPECT_NEAR(w.rate(), want, 4 * std::sqrt(want * w.length_s) / w.length_s) << "window at " << w.start_s;
    }
  }
}

TEST(RateFit, RaggedEndsAreMergedAndCounted) {
  // 10.3 s of paced traffic at 100/s starting 0.7 s into a second: 0.3 s first, 0.0 s last... the last 0.3 s.
  std::vector<std::uint64_t> counts(12, 100);
  counts.front() = 30;
  counts.back() = 30;
  const RateFit fit = fit_rate(counts, 0.3, 0.3, 2.0);
  EXPECT_NEAR(fit.span_s, 10.6, 1e-9);
  EXPECT_NEAR(fit.mean_rate, 100.0, 1e-9);
  EXPECT_FALSE(fit.varies);
  EXPECT_NEAR(fit.windows.front().rate(), 100.0, 1e-9);
  EXPECT_NEAR(fit.windows.back().rate(), 100.0, 1e-9);
  double covered = 0;
  std::uint64_t counted = 0;
  for (const RateWindow& w : fit.windows) {
    EXPECT_GE(w.length_s, 1.0);
    covered += w.length_s;
    counted += w.count;
  }
  EXPECT_NEAR(covered, fit.span_s, 1e-9);
  EXPECT_EQ(counted, 1060U);
}

TEST(RateFit, TooShortToTestIsPoisson) {
  const RateFit fit = fit_rate(std::vector<std::uint64_t>{10, 10, 10}, 1.0, 1.0);
  EXPECT_FALSE(fit.dispersion_known);
  EXPECT_TRUE(fit.poisson);
  EXPECT_EQ(fit_rate(std::vector<std::uint64_t>{}, 1, 1).windows.size(), 0U);
}

}  // namespace
}  // namespace openloop::workload
