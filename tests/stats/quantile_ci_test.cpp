// Order-statistic confidence intervals for percentiles: exact ranks by hand, missing sides, and 95 %
// coverage.
#include "stats/quantile_ci.h"

#include <cmath>
#include <random>

#include <gtest/gtest.h>

using namespace openloop::stats;

namespace {
// The latency histograms' layout (results::make_latency_histogram): 1 ns to 1 h, 3 significant digits.
openloop::hdr::Histogram make_latency_histogram() {
  return openloop::hdr::Histogram(1, 3'600'000'000'000, 3);
}
}  // namespace

namespace {
// Values 1..n recorded once each: below 2048 the histogram holds every value exactly.
openloop::hdr::Histogram one_to(int n) {
  auto h = make_latency_histogram();
  for (int v = 1; v <= n; ++v) h.record(v);
  return h;
}
}  // namespace

TEST(OrderStatistics, ValueAtRankIsTheKthSmallestSample) {
  const auto h = one_to(1000);
  EXPECT_EQ(value_at_rank(h, 1), 1);
  EXPECT_EQ(value_at_rank(h, 500), 500);
  EXPECT_EQ(value_at_rank(h, 1000), 1000);
  EXPECT_EQ(value_at_rank(h, 5000), 1000);  // clamped
  EXPECT_EQ(value_at_rank(make_latency_histogram(), 3), 0);
}

// n = 1000, p = 0.5: ranks 500 ∓ 1.96·√250 = 469.01 .. 530.99 → 469 and 531.
// p = 0.99: 990 ∓ 1.96·√9.9 = 983.83 .. 996.17 → 983 and 997.
TEST(OrderStatistics, RanksByHand) {
  const auto h = one_to(1000);
  const auto median = estimate_quantile(h, 50);
  EXPECT_EQ(median.value, 500);
  EXPECT_EQ(median.low, 469);
  EXPECT_EQ(median.high, 531);
  const auto p99 = estimate_quantile(h, 99);
  EXPECT_EQ(p99.value, 990);
  EXPECT_EQ(p99.low, 983);
  EXPECT_EQ(p99.high, 997);
}

// p99.9 of 1000 samples: the upper rank 999 + 1.96·√0.999 is beyond n, so there is no upper bound.
TEST(OrderStatistics, TooFewSamplesLeaveASideOpen) {
  const auto q = estimate_quantile(one_to(1000), 99.9);
  EXPECT_EQ(q.low, 997);
  EXPECT_FALSE(q.high.has_value());
  const auto tiny = estimate_quantile(one_to(3), 50);
  EXPECT_FALSE(tiny.low.has_value());
  EXPECT_FALSE(tiny.high.has_value());
  EXPECT_EQ(estimate_quantile(make_latency_histogram(), 99).count, 0);
}

TEST(OrderStatistics, CountsAtOrBelowAValue) {
  const auto h = one_to(1000);
  EXPECT_EQ(count_at_or_below(h, 0), 0);
  EXPECT_EQ(count_at_or_below(h, 250), 250);
  EXPECT_EQ(count_at_or_below(h, 5000), 1000);
}

// The interval covers the true p99 of an exponential distribution (mean 10 ms) in about 95 % of 300 samples
// of 2,000 (fixed seed; the binomial spread of the coverage over 300 trials is about ±1.3 %).
TEST(OrderStatistics, CoversTheTrueQuantileAbout95PercentOfTheTime) {
  std::mt19937_64 rng(7);
  std::exponential_distribution<double> exp_ms(1.0 / 10.0);
  const double truth_ns = -std::log(0.01) * 10.0 * 1e6;
  int covered = 0;
  const int trials = 300;
  for (int t = 0; t < trials; ++t) {
    auto h = make_latency_histogram();
    for (int i = 0; i < 2000; ++i) h.record(static_cast<std::int64_t>(exp_ms(rng) * 1e6));
    const auto q = estimate_quantile(h, 99);
    ASSERT_TRUE(q.low && q.high);
    if (static_cast<double>(*q.low) <= truth_ns * 1.001 && truth_ns <= static_cast<double>(*q.high) * 1.001)
      ++covered;
  }
  EXPECT_GE(covered, trials * 90 / 100);
  EXPECT_LE(covered, trials * 99 / 100);
}

// On an effective sample size a quarter of n the interval's rank spread doubles (√4), and the estimate says
// which size it used; 0 or more than n means n.
TEST(OrderStatistics, AnEffectiveSampleSizeWidensTheInterval) {
  const auto h = one_to(1000);
  const auto naive = estimate_quantile(h, 50);
  const auto wide = estimate_quantile(h, 50, 1.96, 250);
  EXPECT_EQ(naive.effective_count, 1000.0);
  EXPECT_EQ(wide.effective_count, 250.0);
  ASSERT_TRUE(naive.low && naive.high && wide.low && wide.high);
  // n·p ∓ 1.96·√(1000·0.25) = 500 ∓ 30.99: ranks 469, 531; on n_eff 250 the spread is 61.98: 438, 562.
  EXPECT_EQ(*naive.low, 469);
  EXPECT_EQ(*naive.high, 531);
  EXPECT_EQ(*wide.low, 438);
  EXPECT_EQ(*wide.high, 562);
  EXPECT_EQ(estimate_quantile(h, 50, 1.96, 5000).effective_count, 1000.0);
  EXPECT_NEAR(*wide.relative_half_width(), 62.0 / 500.0, 1e-9);
}

// effective_samples_to_bound is where estimate_quantile's two sides appear: just above it both bounds exist,
// just below one is missing.
TEST(OrderStatistics, TheEffectiveSizeThatBoundsAPercentile) {
  const auto h = one_to(2000);
  for (const double p : {99.0, 99.9, 50.0, 1.0}) {
    const double needed = effective_samples_to_bound(p, 1.96, 2000);
    ASSERT_GT(needed, 0) << p;
    if (needed * 1.02 > 2000) {  // more than the samples there are: only a longer run bounds it
      const QuantileEstimate all = estimate_quantile(h, p, 1.96);
      EXPECT_FALSE(all.low && all.high) << "p" << p << " needs " << needed;
      continue;
    }
    const QuantileEstimate above = estimate_quantile(h, p, 1.96, needed * 1.02);
    EXPECT_TRUE(above.low && above.high) << "p" << p << " at n_eff " << needed * 1.02;
    {
      const QuantileEstimate below = estimate_quantile(h, p, 1.96, needed * 0.98);
      EXPECT_FALSE(below.low && below.high) << "p" << p << " at n_eff " << needed * 0.98;
    }
  }
  EXPECT_NEAR(effective_samples_to_bound(99.0, 1.96, 100000), 1.96 * 1.96 * 99, 1e-6);
}
