// Tests for a shard's part of a plan: users, sessions and connection caps split by weight add up; rates scale
// by the share; the plan's description is the whole plan plus the shard.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "engine/run_plan.h"

using namespace openloop;
using namespace openloop::engine;

namespace {

RunPlan sharded(RunPlan plan, unsigned index, const std::vector<std::uint64_t>& weights) {
  plan.shard = workload::ShardSpec::make(index, static_cast<unsigned>(weights.size()), weights,
                                         workload::PoissonSplit::stripe)
                   .value();
  return plan;
}

}  // namespace

TEST(ShardParts, UsersSessionsAndRatesAddUpOverTheShards) {
  std::mt19937_64 gen(3);
  std::uniform_int_distribution<std::uint64_t> weight(1, 6), users(17, 500);
  for (unsigned n = 1; n <= 17; ++n) {
    std::vector<std::uint64_t> weights(n);
    for (auto& w : weights) w = weight(gen);
    for (const Model model : {Model::closed, Model::pacing, Model::sessions}) {
      RunPlan plan;
      plan.model = model;
      plan.users = users(gen);
      plan.max_sessions = users(gen);
      plan.max_connections = users(gen);
      plan.max_rate = 123.5;
      std::uint64_t u = 0, s = 0, c = 0;
      double rate = 0;
      for (unsigned i = 0; i < n; ++i) {
        const RunPlan part = sharded(plan, i, weights);
        u += part.users_part();
        // Caps are the largest-remainder part, raised to 1 where that part is 0.
        EXPECT_EQ(part.max_sessions_part(),
                  std::max<std::uint64_t>(1, part.shard.part_of(plan.max_sessions)));
        EXPECT_EQ(part.max_connections_part(),
                  std::max<std::uint64_t>(1, part.shard.part_of(plan.max_connections)));
        s += part.shard.part_of(plan.max_sessions);
        c += part.shard.part_of(plan.max_connections);
        rate += part.max_rate_part();
      }
      EXPECT_EQ(u, plan.users);
      EXPECT_EQ(s, plan.max_sessions);
      EXPECT_EQ(c, plan.max_connections);
      EXPECT_NEAR(rate, plan.max_rate, 1e-9);
    }
  }
}

TEST(ShardParts, ConnectionCapsGiveEveryShardAtLeastOne) {
  RunPlan plan;
  plan.max_connections = 2;
  for (unsigned i = 0; i < 5; ++i) EXPECT_GE(sharded(plan, i, {1, 1, 1, 1, 1}).max_connections_part(), 1U);
}

TEST(ShardParts, DescriptionIsTheWholePlanPlusTheShard) {
  RunPlan plan;
  plan.model = Model::open;
  plan.profile = workload::RateProfile::constant(300, std::chrono::seconds(2));
  plan.duration = std::chrono::seconds(2);
  plan.requests.push_back(RequestSpec{});
  const auto whole = plan.describe();
  EXPECT_FALSE(whole.contains("shard"));
  auto described = sharded(plan, 1, {2, 1, 1}).describe();
  ASSERT_TRUE(described.contains("shard"));
  const auto shard = described["shard"];
  EXPECT_EQ(shard["index"], 1);
  EXPECT_EQ(shard["count"], 3);
  EXPECT_EQ(shard["weights"], nlohmann::json::array({2, 1, 1}));
  EXPECT_DOUBLE_EQ(shard["share"].get<double>(), 0.25);
  EXPECT_EQ(shard["poisson_split"], "stripe");
  described.erase("shard");
  EXPECT_EQ(described, whole);
}
