// Anderson-Darling: reference values by hand, the critical values' false-alarm rate on true exponentials, and
// the departures the arrival check exists to catch (batched and periodic gaps).
#include "stats/anderson_darling.h"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "core/rng.h"

using namespace openloop::stats;
using openloop::Rng;

namespace {
std::vector<double> exponential_gaps(std::uint64_t seed, std::size_t n, double mean) {
  Rng rng(seed);
  std::vector<double> g(n);
  for (auto& x : g) x = mean * rng.exponential();
  return g;
}
}  // namespace

TEST(AndersonDarling, MatchesTheFormulaByHand) {
  // −n − (1/n) Σ (2i − 1)[ln uᵢ + ln(1 − uₙ₊₁₋ᵢ)], evaluated separately (Python, double precision).
  std::vector<double> even{0.9, 0.1, 0.5, 0.3, 0.7};
  EXPECT_NEAR(anderson_darling(even), 0.13008346290525719, 1e-12);
  std::vector<double> tails{0.98, 0.02, 0.99, 0.5, 0.05, 0.6};
  EXPECT_NEAR(anderson_darling(tails), 1.7819509518402592, 1e-12);
  std::vector<double> none;
  EXPECT_EQ(anderson_darling(none), 0);
}

TEST(AndersonDarling, ValuesAtTheSupportsEdgeGiveALargeFiniteStatistic) {
  std::vector<double> u{0.0, 0.0, 0.0, 1.0, 1.0};
  const FitTest t = test_uniform(u, Level::p05);
  EXPECT_TRUE(std::isfinite(t.statistic));
  EXPECT_FALSE(t.passed);
}

// 400 seeded samples of 2,000 true exponential gaps: at the verdict's 1 % level at least 95 % pass (expected
// 99 %), and at 5 % the false alarms are near 5 % (binomial sd over 400 trials ≈ 1.1 %), which checks the
// tabulated critical values themselves.
TEST(AndersonDarling, TrueExponentialPassesAtTheStatedLevel) {
  const int trials = 400;
  int pass_fixed_01 = 0, pass_estimated_01 = 0, reject_fixed_05 = 0, reject_estimated_05 = 0;
  std::vector<double> scratch;
  for (int t = 0; t < trials; ++t) {
    const auto gaps = exponential_gaps(1000 + static_cast<std::uint64_t>(t), 2000, 3.5);
    if (test_exponential(gaps, 3.5, Level::p01, scratch).passed) ++pass_fixed_01;
    if (test_exponential_estimated(gaps, Level::p01, scratch).passed) ++pass_estimated_01;
    if (!test_exponential(gaps, 3.5, Level::p05, scratch).passed) ++reject_fixed_05;
    if (!test_exponential_estimated(gaps, Level::p05, scratch).passed) ++reject_estimated_05;
  }
  EXPECT_GE(pass_fixed_01, trials * 95 / 100);
  EXPECT_GE(pass_estimated_01, trials * 95 / 100);
  EXPECT_GE(reject_fixed_05, trials * 2 / 100);
  EXPECT_LE(reject_fixed_05, trials * 8 / 100);
  EXPECT_GE(reject_estimated_05, trials * 2 / 100);
  EXPECT_LE(reject_estimated_05, trials * 8 / 100);
}

// The same true exponential tested against a rate 10 % off fails the fully specified test; the estimated-rate
// test, which asks only "exponential at all?", still passes.
TEST(AndersonDarling, AWrongRateFailsOnlyTheFullySpecifiedTest) {
  std::vector<double> scratch;
  const auto gaps = exponential_gaps(42, 5000, 1.0);
  EXPECT_FALSE(test_exponential(gaps, 1.1, Level::p01, scratch).passed);
  EXPECT_TRUE(test_exponential_estimated(gaps, Level::p01, scratch).passed);
}

// Sends in batches of 5 (four gaps of 0, then one five times as long: the same mean rate) fail both tests.
TEST(AndersonDarling, BatchedGapsFail) {
  std::vector<double> scratch;
  Rng rng(5);
  std::vector<double> gaps;
  for (int i = 0; i < 400; ++i) {
    for (int k = 0; k < 4; ++k) gaps.push_back(0.0);
    gaps.push_back(5.0 * rng.exponential());
  }
  const FitTest fixed = test_exponential(gaps, 1.0, Level::p01, scratch);
  EXPECT_FALSE(fixed.passed);
  EXPECT_GT(fixed.statistic, 10 * fixed.critical);
  EXPECT_FALSE(test_exponential_estimated(gaps, Level::p01, scratch).passed);
}

// Evenly spaced sends (a periodic timer where the plan is Poisson) fail, as does a tiny jitter around them.
TEST(AndersonDarling, PeriodicGapsFail) {
  std::vector<double> scratch;
  Rng rng(9);
  std::vector<double> gaps(2000);
  for (auto& g : gaps) g = 1.0 + 0.05 * (rng.uniform01() - 0.5);
  EXPECT_FALSE(test_exponential(gaps, 1.0, Level::p01, scratch).passed);
  EXPECT_FALSE(test_exponential_estimated(gaps, Level::p01, scratch).passed);
}

TEST(AndersonDarling, TooFewSamplesAreNotJudged) {
  std::vector<double> scratch;
  const std::vector<double> gaps{0.0, 0.0, 0.0, 0.0};
  const FitTest t = test_exponential(gaps, 1.0, Level::p05, scratch);
  EXPECT_EQ(t.n, 4u);
  EXPECT_TRUE(t.passed);
}

TEST(ErlangCdf, MatchesClosedFormsAndStaysPreciseInTheTails) {
  for (double x : {0.001, 0.5, 1.0, 3.0, 20.0}) {
    EXPECT_NEAR(erlang_cdf(1, x), 1 - std::exp(-x), 1e-15);
    EXPECT_NEAR(erlang_cdf(2, x), 1 - std::exp(-x) * (1 + x), 1e-14);
    EXPECT_NEAR(erlang_cdf(3, x), 1 - std::exp(-x) * (1 + x + x * x / 2), 1e-14);
  }
  // P(3, 1e-3) ≈ x³/6 · e^(−x): far below what 1 − (a number near 1) could resolve.
  EXPECT_NEAR(erlang_cdf(3, 1e-3) / (1e-9 / 6 * std::exp(-1e-3)), 1.0, 1e-3);
  EXPECT_EQ(erlang_cdf(4, 0.0), 0.0);
  EXPECT_NEAR(erlang_cdf(400, 400.0), 0.5, 0.02);  // large shapes: no overflow, median near the mean
}

// A sum of k unit exponentials transformed by erlang_cdf(k) is uniform: the fully specified test passes.
TEST(ErlangCdf, ErlangGapsTransformedByItPassTheUniformTest) {
  Rng rng(77);
  std::vector<double> u(3000);
  for (auto& x : u) {
    double s = 0;
    for (int k = 0; k < 3; ++k) s += rng.exponential();
    x = erlang_cdf(3, s);
  }
  EXPECT_TRUE(test_uniform(u, Level::p01).passed);
}
