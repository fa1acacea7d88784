// Tests for Poisson arrivals: goodness of fit (sharded and not), determinism, non-homogeneous rates.
#include "workload/arrival_schedule.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace openloop;
using namespace openloop::workload;
using namespace std::chrono_literals;

namespace {

constexpr double k_alpha = 0.001;

std::vector<Nanos> drain(const RateProfile& profile, std::uint64_t seed, unsigned shard = 0,
                         unsigned shards = 1) {
  ArrivalSchedule schedule(profile, ArrivalKind::poisson, seed, shard, shards);
  std::vector<Nanos> times;
  while (auto t = schedule.next()) times.push_back(*t);
  return times;
}

std::vector<Nanos> superposition(const RateProfile& profile, std::uint64_t seed, unsigned shards) {
  std::vector<Nanos> merged;
  for (unsigned shard = 0; shard < shards; ++shard) {
    const std::vector<Nanos> part = drain(profile, seed, shard, shards);
    EXPECT_TRUE(std::is_sorted(part.begin(), part.end()));
    merged.insert(merged.end(), part.begin(), part.end());
  }
  std::sort(merged.begin(), merged.end());
  return merged;
}

// Gaps between consecutive points of Λ(t_k), starting from Λ(0) = 0. By time rescaling they are i.i.d. Exp(1)
// for a Poisson process of rate λ(t); for a constant rate they are the inter-arrival gaps times the rate.
std::vector<double> rescaled_gaps(const RateProfile& profile, const std::vector<Nanos>& times) {
  std::vector<double> gaps;
  double previous = 0.0;
  for (Nanos t : times) {
    const double x = profile.cumulative(t);
    gaps.push_back(x - previous);
    previous = x;
  }
  return gaps;
}

// Kolmogorov–Smirnov statistic of the sample against Exp(1).
double ks_statistic_unit_exponential(std::vector<double> sample) {
  std::sort(sample.begin(), sample.end());
  const double n = static_cast<double>(sample.size());
  double d = 0.0;
  for (std::size_t i = 0; i < sample.size(); ++i) {
    const double cdf = 1.0 - std::exp(-sample[i]);
    d = std::max({d, cdf - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - cdf});
  }
  return d;
}

// Critical value of the one-sample KS test with known parameters at level alpha: the asymptotic
// Kolmogorov quantile √(−ln(α/2)/2) with Stephens's finite-sample correction.
double ks_critical(std::size_t n, double alpha) {
  const double root_n = std::sqrt(static_cast<double>(n));
  return std::sqrt(-0.5 * std::log(alpha / 2.0)) / (root_n + 0.12 + 0.11 / root_n);
}

std::ptrdiff_t count_in(const std::vector<Nanos>& times, Nanos from, Nanos to) {
  return std::count_if(times.begin(), times.end(), [&](Nanos t) { return t >= from && t < to; });
}

void expect_counts_within_statistical_bounds(const RateProfile& profile, const std::vector<Nanos>& times) {
  for (Nanos from = 0s; from < profile.duration(); from += 1s) {
    const double expected = profile.cumulative(from + 1s) - profile.cumulative(from);
    const double count = static_cast<double>(count_in(times, from, from + 1s));
    EXPECT_LT(std::fabs(count - expected), 4.0 * std::sqrt(expected) + 1.0) << "second " << from.count();
  }
}

}  // namespace

TEST(PoissonArrivals, InterArrivalGapsAreExponentialUnsharded) {
  const RateProfile profile = RateProfile::constant(1000.0, 100s);
  const std::vector<Nanos> times = drain(profile, 42);
  EXPECT_LT(std::fabs(static_cast<double>(times.size()) - 1e5), 4.0 * std::sqrt(1e5));
  const std::vector<double> gaps = rescaled_gaps(profile, times);
  EXPECT_LT(ks_statistic_unit_exponential(gaps), ks_critical(gaps.size(), k_alpha));
}

TEST(PoissonArrivals, SuperpositionOfFourShardsIsPoissonAtTheFullRate) {
  const RateProfile profile = RateProfile::constant(1000.0, 100s);
  const std::vector<Nanos> times = superposition(profile, 42, 4);
  EXPECT_LT(std::fabs(static_cast<double>(times.size()) - 1e5), 4.0 * std::sqrt(1e5));
  const std::vector<double> gaps = rescaled_gaps(profile, times);
  EXPECT_LT(ks_statistic_unit_exponential(gaps), ks_critical(gaps.size(), k_alpha));
  // Each shard alone carries a quarter of the rate.
  for (unsigned shard = 0; shard < 4; ++shard) {
    ArrivalSchedule schedule(profile, ArrivalKind::poisson, 42, shard, 4);
    EXPECT_DOUBLE_EQ(schedule.expected_total(), 25000.0);
    std::vector<double> quarter_gaps;
    double previous = 0.0;
    while (auto t = schedule.next()) {
      quarter_gaps.push_back(profile.cumulative(*t) / 4.0 - previous);
      previous = profile.cumulative(*t) / 4.0;
    }
    EXPECT_LT(ks_statistic_unit_exponential(quarter_gaps), ks_critical(quarter_gaps.size(), k_alpha));
  }
}

TEST(PoissonArrivals, GoodnessOfFitCatchesAWrongRate) {
  // The test has teeth: the same arrivals judged against 5 % too high a rate are rejected.
  const RateProfile profile = RateProfile::constant(1000.0, 100s);
  std::vector<double> gaps = rescaled_gaps(profile, drain(profile, 42));
  for (double& g : gaps) g *= 1.05;
  EXPECT_GT(ks_statistic_unit_exponential(gaps), ks_critical(gaps.size(), k_alpha));
}

TEST(PoissonArrivals, SameSeedGivesSameTimesAndDifferentSeedDifferentTimes) {
  const RateProfile profile = *RateProfile::parse_stages("2s:500/s,3s:2000/s", "--stages");
  const std::vector<Nanos> a = drain(profile, 7, 1, 3);
  EXPECT_EQ(a, drain(profile, 7, 1, 3));
  EXPECT_NE(a, drain(profile, 8, 1, 3));
  EXPECT_NE(a, drain(profile, 7, 2, 3));
  const std::vector<Nanos> b = drain(profile, 8, 1, 3);
  ASSERT_FALSE(a.empty());
  ASSERT_FALSE(b.empty());
  EXPECT_NE(a.front(), b.front());
}

TEST(PoissonArrivals, PeekShowsWhatNextReturns) {
  ArrivalSchedule schedule(RateProfile::constant(100.0, 1s), ArrivalKind::poisson, 3, 0, 1);
  Nanos previous{0};
  while (const auto peeked = schedule.peek()) {
    const std::uint64_t before = schedule.issued();
    EXPECT_EQ(schedule.next(), peeked);
    EXPECT_EQ(schedule.issued(), before + 1);
    EXPECT_GE(*peeked, previous);
    EXPECT_LT(*peeked, 1s);
    previous = *peeked;
  }
  EXPECT_EQ(schedule.next(), std::nullopt);
}

TEST(PoissonArrivals, RampCountsPerSecondStayWithinStatisticalBounds) {
  const RateProfile ramp = *RateProfile::parse_stages("10s:1000/s", "--stages");
  const std::vector<Nanos> unsharded = drain(ramp, 11);
  EXPECT_LT(std::fabs(static_cast<double>(unsharded.size()) - 5000.0), 4.0 * std::sqrt(5000.0));
  expect_counts_within_statistical_bounds(ramp, unsharded);
  expect_counts_within_statistical_bounds(ramp, superposition(ramp, 11, 4));
}

TEST(PoissonArrivals, MultiStageProfileRescalesToUnitExponentialGaps) {
  const RateProfile profile =
      *RateProfile::parse_stages("30s:100/s,1m:500/s,0s:50/s,10s:50/s,30s:0/s", "--stages");
  for (unsigned shards : {1U, 4U}) {
    const std::vector<Nanos> times = superposition(profile, 5, shards);
    expect_counts_within_statistical_bounds(profile, times);
    const std::vector<double> gaps = rescaled_gaps(profile, times);
    EXPECT_LT(ks_statistic_unit_exponential(gaps), ks_critical(gaps.size(), k_alpha)) << shards << " shards";
  }
}

TEST(PoissonArrivals, ZeroRateProfileSchedulesNothing) {
  ArrivalSchedule schedule(RateProfile::constant(0.0, 10s), ArrivalKind::poisson, 1, 0, 2);
  EXPECT_EQ(schedule.peek(), std::nullopt);
  EXPECT_EQ(schedule.next(), std::nullopt);
  EXPECT_DOUBLE_EQ(schedule.expected_total(), 0.0);
}
