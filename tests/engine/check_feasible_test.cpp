#include "engine/run_plan.h"

#include <gtest/gtest.h>

using namespace openloop;
using namespace openloop::engine;
using namespace std::chrono_literals;

namespace {
RunPlan open_plan(double rate, unsigned threads) {
  RunPlan plan;
  plan.model = Model::open;
  plan.threads = threads;
  plan.duration = 1s;
  plan.profile = workload::RateProfile::constant(rate, plan.duration);
  return plan;
}
}  // namespace

TEST(CheckFeasible, RefusesARateNoMachineCanGenerateNamingTheRateAndTheMaximum) {
  const auto r = check_feasible(open_plan(99999999999, 2), 1ns);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ExitCode::usage);
  const std::string& m = r.error().message;
  EXPECT_NE(m.find("99999999999/s"), std::string::npos) << m;
  EXPECT_NE(m.find("--rate"), std::string::npos) << m;
  EXPECT_NE(m.find("10000000/s per worker thread"), std::string::npos) << m;
  EXPECT_NE(m.find("2 thread(s): 20000000/s in all"), std::string::npos) << m;
}

TEST(CheckFeasible, TheLimitIsPerWorkerThread) {
  EXPECT_TRUE(check_feasible(open_plan(k_max_rate_per_thread, 1), 1ns));
  EXPECT_FALSE(check_feasible(open_plan(k_max_rate_per_thread * 1.01, 1), 1ns));
  EXPECT_TRUE(check_feasible(open_plan(k_max_rate_per_thread * 2, 2), 1ns));
  EXPECT_FALSE(check_feasible(open_plan(k_max_rate_per_thread * 2.02, 2), 1ns));
}

TEST(CheckFeasible, TheStagesPeakIsWhatCounts) {
  RunPlan plan = open_plan(1, 1);
  plan.profile = workload::RateProfile::from_stages({{1s, 100}, {1s, 5e7}, {1s, 100}}, 0);
  EXPECT_FALSE(check_feasible(plan, 1ns));
}

TEST(CheckFeasible, ACoarseClockLowersTheMaximum) {
  // With a 1 µs clock, arrivals 0.5 µs apart could not be told apart.
  const auto r = check_feasible(open_plan(2e6, 1), 1us);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("1000000/s per worker thread"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("resolution is 1000 ns"), std::string::npos) << r.error().message;
  EXPECT_TRUE(check_feasible(open_plan(1e6, 1), 1us));
}

TEST(CheckFeasible, NamesTheScenario) {
  RunPlan plan = open_plan(1e9, 1);
  plan.scenario = "checkout";
  const auto r = check_feasible(plan, 1ns);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message.rfind("scenario 'checkout': its rate peaks at 1000000000/s", 0), 0U)
      << r.error().message;
}

TEST(CheckFeasible, NamesTheSessionRateFlag) {
  RunPlan plan = open_plan(1e9, 1);
  plan.model = Model::sessions;
  const auto r = check_feasible(plan, 1ns);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message.rfind("--session-rate peaks at", 0), 0U) << r.error().message;
}

TEST(CheckFeasible, UserDrivenModelsAreBoundedByTheirUsers) {
  RunPlan plan = open_plan(1e12, 1);
  plan.model = Model::closed;
  EXPECT_TRUE(check_feasible(plan, 1ns));
}
