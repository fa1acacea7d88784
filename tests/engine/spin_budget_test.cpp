// The spin budget on a manual clock: the share it allows, its burst, and how the wait for a CPU scales it
// down.
#include "engine/spin_budget.h"

#include <gtest/gtest.h>

#include "core/clock.h"

using namespace openloop;
using namespace openloop::engine;
using namespace std::chrono_literals;

namespace {

// Spins in 100 µs steps whenever the budget allows, for `length` of clock time; returns the time spun.
Nanos spin_greedily(SpinBudget& budget, ManualClock& clock, Nanos length) {
  const SteadyTime end = clock.now() + length;
  Nanos spun{0};
  while (clock.now() < end) {
    if (budget.may_spin(clock.now())) {
      budget.spend(100us);
      spun += 100us;
    }
    clock.advance(100us);
  }
  return spun;
}

}  // namespace

TEST(SpinBudget, UncappedNeverRefuses) {
  SpinBudget budget;
  EXPECT_FALSE(budget.capped());
  budget.spend(1s);
  EXPECT_TRUE(budget.may_spin(SteadyTime{}));
  EXPECT_FALSE(budget.observation_due(SteadyTime{} + 1s));
}

TEST(SpinBudget, SpinsItsShareOfACoreOverARun) {
  ManualClock clock;
  SpinBudget budget(0.5, clock.now());
  const Nanos spun = spin_greedily(budget, clock, 2s);
  // Half of two seconds, plus the burst it starts with (one step of slack for the step size).
  EXPECT_NEAR(to_seconds(spun), 1.0 + to_seconds(SpinBudget::k_burst), 2e-4);
  EXPECT_DOUBLE_EQ(budget.share(), 0.5);
  EXPECT_DOUBLE_EQ(budget.lowest(), 0.5);
}

TEST(SpinBudget, AQuietStretchBanksNoMoreThanTheBurst) {
  ManualClock clock;
  SpinBudget budget(0.25, clock.now());
  clock.advance(10s);  // nothing spun for ten seconds
  ASSERT_TRUE(budget.may_spin(clock.now()));
  budget.spend(SpinBudget::k_burst);
  EXPECT_FALSE(budget.may_spin(clock.now()));
  clock.advance(4ms);  // 1 ms of spinning at a quarter of a core
  EXPECT_TRUE(budget.may_spin(clock.now()));
  budget.spend(1ms);
  EXPECT_FALSE(budget.may_spin(clock.now()));
}

TEST(SpinBudget, WaitingForACpuScalesItDown) {
  ManualClock clock;
  SpinBudget budget(0.5, clock.now());
  EXPECT_FALSE(budget.observation_due(clock.now()));
  budget.observe_run_delay(clock.now(), 7s);  // the baseline: the thread's wait before the run
  clock.advance(100ms);
  ASSERT_TRUE(budget.observation_due(clock.now()));
  // 10 % of the window waiting for a CPU: 0.5 × (1 − 0.1 / 0.25) = 0.3 of a core.
  budget.observe_run_delay(clock.now(), 7s + 10ms);
  EXPECT_NEAR(budget.current(), 0.3, 1e-9);
  const Nanos spun = spin_greedily(budget, clock, 1s);
  EXPECT_NEAR(to_seconds(spun), 0.3 + to_seconds(SpinBudget::k_burst), 2e-4);
  EXPECT_NEAR(budget.lowest(), 0.3, 1e-9);
}

TEST(SpinBudget, StopsSpinningOnAHostWhereItsThreadWaitsForACpu) {
  // The case measured on a loaded host: workers waited 54 % of their time for a CPU.
  ManualClock clock;
  SpinBudget budget(0.5, clock.now());
  budget.observe_run_delay(clock.now(), 0ns);
  clock.advance(200ms);
  budget.observe_run_delay(clock.now(), 108ms);
  EXPECT_DOUBLE_EQ(budget.current(), 0.0);
  spin_greedily(budget, clock, 20ms);  // what the burst held
  EXPECT_EQ(spin_greedily(budget, clock, 1s), 0ns);
  // The wait passes: the share comes back, and the lowest stays on record.
  budget.observe_run_delay(clock.now(), 108ms);
  EXPECT_DOUBLE_EQ(budget.current(), 0.5);
  EXPECT_DOUBLE_EQ(budget.lowest(), 0.0);
  EXPECT_GT(spin_greedily(budget, clock, 1s), 400ms);
}

TEST(SpinBudget, AWaitJustUnderTheStopStillSpinsAWaitAtItDoesNot) {
  ManualClock clock;
  SpinBudget budget(1.0, clock.now());
  budget.observe_run_delay(clock.now(), 0ns);
  clock.advance(1s);
  budget.observe_run_delay(clock.now(), 240ms);
  EXPECT_NEAR(budget.current(), 0.04, 1e-9);
  clock.advance(1s);
  budget.observe_run_delay(clock.now(), 240ms + 250ms);
  EXPECT_DOUBLE_EQ(budget.current(), 0.0);
}
