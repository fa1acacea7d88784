// Tests for host shards: stripes partition the global indices, integer splits add up, and the union of every
// shard's workers' schedules is the unsharded schedule (constant, staged, Poisson striped; thinned within
// statistical bounds).
#include "workload/shard.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "workload/arrival_schedule.h"

using namespace openloop;
using namespace openloop::workload;
using namespace std::chrono_literals;

namespace {

ShardSpec spec(unsigned index, const std::vector<std::uint64_t>& weights,
               PoissonSplit split = PoissonSplit::stripe) {
  auto s = ShardSpec::make(index, static_cast<unsigned>(weights.size()), weights, split);
  EXPECT_TRUE(s.has_value()) << (s ? "" : s.error().message);
  return *s;
}

std::vector<std::uint64_t> random_weights(std::mt19937_64& gen, unsigned n) {
  std::uniform_int_distribution<std::uint64_t> w(1, 5);
  std::vector<std::uint64_t> out(n);
  for (auto& x : out) x = w(gen);
  return out;
}

std::vector<Nanos> drain(ArrivalSchedule schedule) {
  std::vector<Nanos> times;
  while (auto t = schedule.next()) times.push_back(*t);
  return times;
}

// Every lane of every shard (each shard with its own thread count), merged and sorted.
std::vector<Nanos> union_of_shards(const RateProfile& profile, ArrivalKind kind, std::uint64_t seed,
                                   const std::vector<std::uint64_t>& weights, PoissonSplit split,
                                   std::mt19937_64& gen) {
  std::vector<Nanos> all;
  std::uniform_int_distribution<unsigned> threads(1, 4);
  for (unsigned i = 0; i < weights.size(); ++i) {
    const ShardSpec s = spec(i, weights, split);
    const unsigned workers = threads(gen);
    for (unsigned w = 0; w < workers; ++w) {
      const auto part = drain(ArrivalSchedule(profile, kind, seed, s, w, workers));
      EXPECT_TRUE(std::is_sorted(part.begin(), part.end()));
      all.insert(all.end(), part.begin(), part.end());
    }
  }
  std::sort(all.begin(), all.end());
  return all;
}

std::vector<Nanos> unsharded(const RateProfile& profile, ArrivalKind kind, std::uint64_t seed) {
  auto times = drain(ArrivalSchedule(profile, kind, seed, ShardSpec{}, 0, 1));
  return times;
}

}  // namespace

TEST(ShardStripe, EqualWeightsGiveIndexModN) {
  for (unsigned n = 1; n <= 17; ++n) {
    for (unsigned i = 0; i < n; ++i) {
      const ShardStripe stripe(spec(i, std::vector<std::uint64_t>(n, 3)));  // 3,3,... reduces to 1,1,...
      EXPECT_EQ(stripe.cycle(), n);
      for (std::uint64_t k = 0; k < 50; ++k) EXPECT_EQ(stripe.global(k), i + k * n);
    }
  }
}

TEST(ShardStripe, WeightedStripesPartitionTheIndicesAndInterleave) {
  std::mt19937_64 gen(7);
  for (unsigned n = 1; n <= 17; ++n) {
    const auto weights = random_weights(gen, n);
    const auto owners = stripe_owners(weights);
    const std::uint64_t cycle = std::accumulate(weights.begin(), weights.end(), std::uint64_t{0});
    ASSERT_EQ(owners.size(), cycle);
    // Each shard owns exactly its weight of every cycle.
    for (unsigned i = 0; i < n; ++i)
      EXPECT_EQ(static_cast<std::uint64_t>(std::count(owners.begin(), owners.end(), i)), weights[i]);
    // The shards' global indices cover 0 .. 3·cycle−1 exactly once.
    const std::uint64_t total = 3 * cycle;
    std::vector<int> seen(total, 0);
    for (unsigned i = 0; i < n; ++i) {
      const ShardSpec s = ShardSpec::make(i, n, weights, PoissonSplit::stripe).value();
      const ShardStripe stripe(s);
      const std::uint64_t mine = stripe.count_below(total);
      for (std::uint64_t k = 0; k < mine; ++k) {
        const std::uint64_t j = stripe.global(k);
        ASSERT_LT(j, total);
        ++seen[j];
        if (k > 0) {
          EXPECT_LT(stripe.global(k - 1), j);
        }
      }
    }
    EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; })) << "n = " << n;
  }
}

TEST(ShardStripe, TwoToOneSpreadsTheLighterShardBetweenTheHeavierOnes) {
  // 2,1: shard 0 takes positions 0 and 2 of each cycle of 3 (never two of shard 1 in a row).
  const auto owners = stripe_owners({2, 1});
  EXPECT_EQ(owners, (std::vector<unsigned>{0, 1, 0}));
  const auto owners3 = stripe_owners({1, 3});
  EXPECT_EQ(owners3, (std::vector<unsigned>{1, 0, 1, 1}));
}

TEST(ShardSplits, LargestRemainderPartsAlwaysAddUp) {
  std::mt19937_64 gen(11);
  std::uniform_int_distribution<std::uint64_t> totals(0, 1000);
  for (unsigned n = 1; n <= 17; ++n) {
    for (int round = 0; round < 20; ++round) {
      const auto weights = random_weights(gen, n);
      const std::uint64_t total = totals(gen);
      const auto parts = split_by_weight(total, weights);
      EXPECT_EQ(std::accumulate(parts.begin(), parts.end(), std::uint64_t{0}), total);
      const double sum = std::accumulate(weights.begin(), weights.end(), 0.0);
      for (unsigned i = 0; i < n; ++i) {
        const double exact = static_cast<double>(total) * static_cast<double>(weights[i]) / sum;
        EXPECT_LT(std::abs(static_cast<double>(parts[i]) - exact), 1.0);
        // ShardSpec::part_of agrees with the split it belongs to.
        EXPECT_EQ(ShardSpec::make(i, n, weights, PoissonSplit::stripe)->part_of(total), parts[i]);
      }
    }
  }
  EXPECT_EQ(split_by_weight(10, {1, 1, 1}), (std::vector<std::uint64_t>{4, 3, 3}));
  EXPECT_EQ(split_by_weight(2, {1, 1, 1}), (std::vector<std::uint64_t>{1, 1, 0}));
}

TEST(ShardSpecMake, RefusesBadShardsAndWeights) {
  EXPECT_FALSE(ShardSpec::make(3, 3, {}, PoissonSplit::stripe));
  EXPECT_FALSE(ShardSpec::make(0, 0, {}, PoissonSplit::stripe));
  const auto one_weight = ShardSpec::make(1, 2, {1}, PoissonSplit::stripe);
  ASSERT_FALSE(one_weight);
  EXPECT_NE(one_weight.error().message.find("--shard-weights"), std::string::npos);
  EXPECT_FALSE(ShardSpec::make(0, 2, {1, 0}, PoissonSplit::stripe));
  EXPECT_FALSE(ShardSpec::make(0, 2, {k_max_weight_sum, 1}, PoissonSplit::stripe));
  const auto reduced = ShardSpec::make(1, 3, {4, 2, 2}, PoissonSplit::thin);
  ASSERT_TRUE(reduced);
  EXPECT_EQ(reduced->weights, (std::vector<std::uint64_t>{2, 1, 1}));
  EXPECT_DOUBLE_EQ(reduced->share(), 0.25);
}

TEST(PoissonSplitParsing, AcceptsStripeAndThinAndNamesTheFlagOtherwise) {
  EXPECT_EQ(parse_poisson_split("stripe", "--poisson-split"), PoissonSplit::stripe);
  EXPECT_EQ(parse_poisson_split("thin", "--poisson-split"), PoissonSplit::thin);
  const auto bad = parse_poisson_split("split", "--poisson-split");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("--poisson-split"), std::string::npos);
  EXPECT_NE(bad.error().message.find("stripe or thin"), std::string::npos);
}

TEST(ShardedSchedules, ConstantAndStagedUnionsAreTheUnshardedScheduleExactly) {
  std::mt19937_64 gen(23);
  const RateProfile profiles[] = {RateProfile::constant(997.0, 2s),
                                  *RateProfile::parse_stages("500ms:800/s,1s:800/s,500ms:0/s", "--stages"),
                                  *RateProfile::parse_stages("1s:1500/s,1s:300/s", "--stages")};
  for (const auto& profile : profiles) {
    const auto whole = unsharded(profile, ArrivalKind::constant, 1);
    ASSERT_GT(whole.size(), 500U);
    for (unsigned n = 1; n <= 17; ++n) {
      const auto weights = n % 2 == 0 ? std::vector<std::uint64_t>(n, 1) : random_weights(gen, n);
      EXPECT_EQ(union_of_shards(profile, ArrivalKind::constant, 1, weights, PoissonSplit::stripe, gen), whole)
          << "n = " << n;
    }
  }
}

TEST(ShardedSchedules, StripedPoissonUnionIsBitIdenticalToTheUnshardedProcess) {
  std::mt19937_64 gen(29);
  const RateProfile profiles[] = {RateProfile::constant(800.0, 2s),
                                  *RateProfile::parse_stages("1s:1200/s,1s:200/s", "--stages")};
  for (const auto& profile : profiles) {
    const auto whole = unsharded(profile, ArrivalKind::poisson, 42);
    // The unsharded process is the one the first constructor's single worker always drew.
    EXPECT_EQ(whole, drain(ArrivalSchedule(profile, ArrivalKind::poisson, 42, 0, 1)));
    ASSERT_GT(whole.size(), 500U);
    for (unsigned n = 1; n <= 17; ++n) {
      const auto weights = random_weights(gen, n);
      EXPECT_EQ(union_of_shards(profile, ArrivalKind::poisson, 42, weights, PoissonSplit::stripe, gen), whole)
          << "n = " << n;
    }
  }
}

TEST(ShardedSchedules, ThinnedPoissonShardsCarryTheirShareWithinStatisticalBounds) {
  // Each lane is an independent Poisson process, so counts are Poisson: the union's count is within 5σ of
  // Λ(duration) and each shard's within 5σ of its share (σ = √mean; 5σ fails about once in 2 million).
  std::mt19937_64 gen(31);
  const RateProfile profile = *RateProfile::parse_stages("1s:3000/s,2s:3000/s", "--stages");
  const double total = profile.total_expected();
  for (unsigned n = 1; n <= 17; ++n) {
    const auto weights = random_weights(gen, n);
    const double sum = std::accumulate(weights.begin(), weights.end(), 0.0);
    std::size_t all = 0;
    for (unsigned i = 0; i < n; ++i) {
      const ShardSpec s = spec(i, weights, PoissonSplit::thin);
      std::size_t mine = 0;
      for (unsigned w = 0; w < 3; ++w) {
        ArrivalSchedule lane(profile, ArrivalKind::poisson, 5, s, w, 3);
        EXPECT_NEAR(lane.expected_total(), total * static_cast<double>(weights[i]) / sum / 3, 1e-6);
        mine += drain(lane).size();
      }
      const double expected = total * static_cast<double>(weights[i]) / sum;
      EXPECT_LT(std::abs(static_cast<double>(mine) - expected), 5 * std::sqrt(expected) + 1)
          << "shard " << i << "/" << n;
      all += mine;
    }
    EXPECT_LT(std::abs(static_cast<double>(all) - total), 5 * std::sqrt(total)) << "n = " << n;
  }
}

TEST(ShardedSchedules, ThinnedLanesOfDifferentShardsDrawDifferentStreams) {
  const RateProfile profile = RateProfile::constant(500.0, 1s);
  const auto a =
      drain(ArrivalSchedule(profile, ArrivalKind::poisson, 9, spec(0, {1, 1}, PoissonSplit::thin), 0, 1));
  const auto b =
      drain(ArrivalSchedule(profile, ArrivalKind::poisson, 9, spec(1, {1, 1}, PoissonSplit::thin), 0, 1));
  EXPECT_NE(a, b);
}

TEST(ShardedSchedules, ConstantExpectedTotalIsWhatEachLaneIssues) {
  std::mt19937_64 gen(37);
  const RateProfile profile = RateProfile::constant(333.0, 1500ms);
  for (unsigned n = 1; n <= 9; ++n) {
    const auto weights = random_weights(gen, n);
    for (unsigned i = 0; i < n; ++i) {
      for (unsigned w = 0; w < 3; ++w) {
        ArrivalSchedule lane(profile, ArrivalKind::constant, 1, spec(i, weights), w, 3);
        EXPECT_DOUBLE_EQ(lane.expected_total(), static_cast<double>(drain(lane).size()));
      }
    }
  }
}
