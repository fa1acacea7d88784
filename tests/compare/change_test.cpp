// The intervals of a change between two runs: exact cases, and coverage checked by seeded simulation.
#include "compare/change.h"

#include <gtest/gtest.h>

#include "core/rng.h"
#include "results/recording/interval_stats.h"

namespace openloop::compare {
namespace {

hdr::Histogram exponential_samples(Rng& rng, int n, double mean_ns) {
  hdr::Histogram h = results::make_latency_histogram();
  for (int i = 0; i < n; ++i) h.record(static_cast<std::int64_t>(1000 + rng.exponential() * mean_ns));
  return h;
}

TEST(NormalZ, MatchesTheTable) {
  EXPECT_NEAR(normal_z(0.95), 1.959964, 1e-5);
  EXPECT_NEAR(normal_z(0.99), 2.575829, 1e-5);
  // Two runs, one quantity: each run's interval at 1 − 0.05/2.
  EXPECT_NEAR(per_run_z(0.95, 1), normal_z(0.975), 1e-9);
  EXPECT_NEAR(per_run_z(0.95, 10), normal_z(1 - 0.05 / 20), 1e-9);
}

TEST(CompareQuantile, SameHistogramIsUnchangedWithZeroInside) {
  hdr::Histogram h = results::make_latency_histogram();
  for (int i = 1; i <= 10000; ++i) h.record(1'000'000 + i * 100);
  const QuantileChange q = compare_quantile(h, h, 99, per_run_z(0.95, 1));
  EXPECT_EQ(q.direction, Direction::unchanged);
  ASSERT_TRUE(q.change && q.low && q.high);
  EXPECT_EQ(*q.change, 0.0);
  EXPECT_LT(*q.low, 0.0);
  EXPECT_GT(*q.high, 0.0);
}

TEST(CompareQuantile, TwentyPercentSlowerIsAnIncreaseHoldingTheTrueChange) {
  hdr::Histogram b = results::make_latency_histogram(), c = results::make_latency_histogram();
  for (int i = 1; i <= 10000; ++i) {
    b.record(1'000'000 + i * 100);
    c.record(static_cast<std::int64_t>((1'000'000 + i * 100) * 1.2));
  }
  const QuantileChange q = compare_quantile(b, c, 50, per_run_z(0.95, 4));
  EXPECT_EQ(q.direction, Direction::increased);
  ASSERT_TRUE(q.change && q.low && q.high);
  EXPECT_NEAR(*q.change, 0.2, 0.002);
  EXPECT_LT(*q.low, 0.2);
  EXPECT_GT(*q.high, 0.2);
  EXPECT_GT(*q.low, 0.0);
  const QuantileChange back = compare_quantile(c, b, 50, per_run_z(0.95, 4));
  EXPECT_EQ(back.direction, Direction::decreased);
}

TEST(CompareQuantile, BucketRoundingIsNoChange) {
  // 1,000,000 and 1,000,400 ns share a bucket at 3 significant digits (width 1024 ns there).
  hdr::Histogram b = results::make_latency_histogram(), c = results::make_latency_histogram();
  b.record(1'000'000, 1000);
  c.record(1'000'400, 1000);
  const QuantileChange q = compare_quantile(b, c, 50, per_run_z(0.95, 1));
  EXPECT_EQ(q.direction, Direction::unchanged);
  EXPECT_EQ(*q.change, 0.0);
}

TEST(CompareQuantile, TooFewSamplesToBoundIsUnknown) {
  Rng rng(7);
  const hdr::Histogram b = exponential_samples(rng, 100, 1e6), c = exponential_samples(rng, 100, 1e6);
  const QuantileChange q = compare_quantile(b, c, 99.9, per_run_z(0.95, 1));
  EXPECT_EQ(q.direction, Direction::unknown);
  EXPECT_FALSE(q.high);
  const QuantileChange none = compare_quantile(results::make_latency_histogram(), c, 50, 2);
  EXPECT_FALSE(none.change);
  EXPECT_EQ(none.direction, Direction::unknown);
}

// Seeded simulation: same distribution → at most the nominal share flagged (the box of two intervals is
// conservative); a 20 % slower one → the interval holds +20 % at least as often as promised.
TEST(CompareQuantile, CoverageAndFalseAlarmsByTheBook) {
  Rng rng(2026);
  const double z = per_run_z(0.95, 1);
  int false_alarms = 0, covered = 0, detected = 0;
  constexpr int k_pairs = 300;
  for (int i = 0; i < k_pairs; ++i) {
    const hdr::Histogram a = exponential_samples(rng, 2000, 1e6), b = exponential_samples(rng, 2000, 1e6);
    const QuantileChange same = compare_quantile(a, b, 90, z);
    if (same.direction != Direction::unchanged) ++false_alarms;
    const hdr::Histogram slow = exponential_samples(rng, 2000, 1.2e6);
    const QuantileChange moved = compare_quantile(a, slow, 90, z);
    // The true p90 ratio: (1000 + 1.2e6·ln 10) / (1000 + 1e6·ln 10) − 1.
    const double truth = (1000 + 1.2e6 * std::log(10.0)) / (1000 + 1e6 * std::log(10.0)) - 1;
    if (moved.low && moved.high && *moved.low <= truth && truth <= *moved.high) ++covered;
    if (moved.direction == Direction::increased) ++detected;
  }
  EXPECT_LE(false_alarms, k_pairs * 5 / 100) << false_alarms;
  EXPECT_GE(covered, k_pairs * 95 / 100) << covered;
  EXPECT_GE(detected, k_pairs / 2) << detected;  // 2,000 samples: +20 % at p90 is usually seen
}

TEST(StudentT, MatchesTheTable) {
  const double z95 = normal_z(0.95);
  EXPECT_NEAR(student_t(z95, 3), 3.182, 3.182 * 0.03);
  EXPECT_NEAR(student_t(z95, 9), 2.262, 2.262 * 0.01);
  EXPECT_NEAR(student_t(z95, 30), 2.042, 2.042 * 0.01);
  EXPECT_NEAR(student_t(normal_z(0.99), 19), 2.861, 2.861 * 0.01);
}

// A run whose seconds alternate between fast and slow (a stall every other second): its samples are not
// independent, and the order-statistic interval alone would be far too narrow.
TEST(EstimateRunQuantile, SecondToSecondSpreadWidensTheInterval) {
  std::vector<hdr::Histogram> seconds;
  hdr::Histogram total = results::make_latency_histogram();
  for (int s = 0; s < 10; ++s) {
    hdr::Histogram h = results::make_latency_histogram();
    const std::int64_t base = s % 2 == 0 ? 1'000'000 : 1'300'000;
    for (int i = 0; i < 1000; ++i) h.record(base + i * 100);
    total.add(h);
    seconds.push_back(std::move(h));
  }
  const double z = per_run_z(0.95, 1);
  const stats::QuantileEstimate plain = estimate_run_quantile(total, nullptr, 25, z);
  const stats::QuantileEstimate batched = estimate_run_quantile(total, &seconds, 25, z);
  ASSERT_TRUE(plain.low && plain.high && batched.low && batched.high);
  EXPECT_EQ(plain.value, batched.value);
  EXPECT_LT(*batched.low, *plain.low);
  EXPECT_GT(*batched.high, *plain.high);
  // p25 per second: 1.025 or 1.325 ms, sd of its log 0.135 over 10 seconds: ± t(9)·0.135/√10 ≈ ±12 %.
  EXPECT_NEAR(static_cast<double>(*batched.high) / static_cast<double>(batched.value), 1.12, 0.04);
  const auto spread = batch_spread(seconds, 50);
  ASSERT_TRUE(spread);
  EXPECT_EQ(spread->batches, 10);
  // Seconds too few to resolve p99.9 (1000 samples: n·(1 − p) = 1) still count; p99.99 is resolved by none.
  EXPECT_FALSE(batch_spread(seconds, 99.99));
  std::vector<hdr::Histogram> two(seconds.begin(), seconds.begin() + 2);
  EXPECT_FALSE(batch_spread(two, 50));
}

// The effective n of the run's own independence check sets the interval; batch means widen it only when the
// seconds disagree beyond what that n explains (here: a stall every other second).
TEST(EstimateRunQuantile, BatchMeansWidenOnlyWhenTheSecondsDisagreeBeyondTheEffectiveN) {
  const auto run_of = [](bool alternate, std::vector<hdr::Histogram>& seconds) {
    hdr::Histogram total = results::make_latency_histogram();
    for (int s = 0; s < 10; ++s) {
      hdr::Histogram h = results::make_latency_histogram();
      const std::int64_t base = alternate && s % 2 == 1 ? 1'300'000 : 1'000'000;
      for (int i = 0; i < 1000; ++i) h.record(base + i * 100);
      total.add(h);
      seconds.push_back(std::move(h));
    }
    return total;
  };
  std::vector<hdr::Histogram> steady_seconds, stalling_seconds;
  const hdr::Histogram steady = run_of(false, steady_seconds), stalling = run_of(true, stalling_seconds);
  EXPECT_FALSE(batches_disagree(steady_seconds, 25));
  EXPECT_TRUE(batches_disagree(stalling_seconds, 25));
  const double z = normal_z(0.95);
  results::IndependenceCheck independent;
  independent.tested = true;
  independent.samples = 10000;
  IntervalBasis basis = IntervalBasis::batch_means;
  const stats::QuantileEstimate plain = estimate_run_quantile(RunSamples{&steady, nullptr, nullptr}, 25, z);
  const stats::QuantileEstimate kept =
      estimate_run_quantile(RunSamples{&steady, &steady_seconds, &independent}, 25, z, &basis);
  EXPECT_EQ(basis, IntervalBasis::independent);
  EXPECT_EQ(kept.low, plain.low);
  EXPECT_EQ(kept.high, plain.high);
  results::IndependenceCheck correlated = independent;
  correlated.effective_fraction = 0.25;  // intervals ×2
  const stats::QuantileEstimate effective =
      estimate_run_quantile(RunSamples{&steady, &steady_seconds, &correlated}, 25, z, &basis);
  EXPECT_EQ(basis, IntervalBasis::effective);
  EXPECT_NEAR(effective.effective_count, 2500, 1);
  ASSERT_TRUE(effective.high && plain.high);
  EXPECT_GE(*effective.high, *plain.high);
  const stats::QuantileEstimate widened =
      estimate_run_quantile(RunSamples{&stalling, &stalling_seconds, &correlated}, 25, z, &basis);
  EXPECT_EQ(basis, IntervalBasis::batch_means);
  const stats::QuantileEstimate unwidened =
      estimate_run_quantile(RunSamples{&stalling, nullptr, &correlated}, 25, z);
  ASSERT_TRUE(widened.high && unwidened.high);
  EXPECT_GT(*widened.high, *unwidened.high);
}

TEST(BatchesDisagree, SecondsOfOneDistributionAgree) {
  Rng rng(11);
  std::vector<hdr::Histogram> seconds;
  int disagreed = 0;
  for (int trial = 0; trial < 100; ++trial) {
    seconds.clear();
    for (int s = 0; s < 8; ++s) seconds.push_back(exponential_samples(rng, 500, 1e6));
    disagreed += batches_disagree(seconds, 50) ? 1 : 0;
  }
  // A 1 % test; the seconds' own intervals include the bucket resolution, so fewer.
  EXPECT_LE(disagreed, 5) << disagreed;
}

TEST(ChiSquareQuantile, MatchesTheTable) {
  EXPECT_NEAR(chi_square_quantile(0.99, 3), 11.345, 11.345 * 0.01);
  EXPECT_NEAR(chi_square_quantile(0.99, 9), 21.666, 21.666 * 0.01);
  EXPECT_NEAR(chi_square_quantile(0.95, 4), 9.488, 9.488 * 0.01);
}

TEST(CompareFraction, ZeroAgainstZeroIsUnchangedAndErrorsAppearingIsAnIncrease) {
  const double z = normal_z(0.95);
  const FractionChange none = compare_fraction(0, 10000, 0, 10000, z);
  EXPECT_EQ(none.direction, Direction::unchanged);
  EXPECT_EQ(*none.change, 0.0);
  const FractionChange some = compare_fraction(0, 10000, 50, 10000, z);
  EXPECT_EQ(some.direction, Direction::increased);
  EXPECT_NEAR(*some.change, 0.005, 1e-12);
  const FractionChange one = compare_fraction(0, 10000, 1, 10000, z);
  EXPECT_EQ(one.direction, Direction::unchanged);  // one error in 10,000 is not evidence
  EXPECT_EQ(compare_fraction(0, 0, 1, 10, z).direction, Direction::unknown);
}

TEST(CompareRate, EqualRatesAreUnchangedAndAFivePercentLossIsADecrease) {
  const double z = normal_z(0.95);
  const RateSample all{10000, 10000, 10.0, false};
  const RateChange same = compare_rate(all, all, z);
  EXPECT_EQ(same.direction, Direction::unchanged);
  EXPECT_DOUBLE_EQ(same.baseline, 1000.0);
  const RateChange lost = compare_rate(all, {9500, 10000, 10.0, false}, z);
  EXPECT_EQ(lost.direction, Direction::decreased);
  EXPECT_NEAR(*lost.change, -0.05, 1e-12);
  EXPECT_EQ(compare_rate({}, all, z).direction, Direction::unknown);
}

}  // namespace
}  // namespace openloop::compare
