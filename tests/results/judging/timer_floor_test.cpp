// The timer floor kept in a run's environment: stored beside the host facts, read back, malformed ignored.
#include "results/judging/timer_floor.h"

#include <gtest/gtest.h>

using namespace openloop::results;

TEST(TimerFloorRecord, StoredBesideTheHostFactsAndReadBack) {
  RunInfo info;
  info.environment = {{"host", "gen-1"}};
  TimerFloor f;
  f.samples = 1200;
  f.gap_us = 50;
  f.p50_us = 28.5;
  f.p99_us = 912.25;
  f.max_us = 6800;
  f.spin_lead_us = 868.375;
  f.spin_budget = 0.5;
  set_timer_floor(info, f);
  EXPECT_EQ(info.environment["host"], "gen-1");
  EXPECT_DOUBLE_EQ(info.environment["timer_floor"]["p99_us"].get<double>(), 912.25);
  const TimerFloor back = timer_floor_of(info);
  EXPECT_EQ(back.samples, 1200U);
  EXPECT_DOUBLE_EQ(back.p50_us, 28.5);
  EXPECT_DOUBLE_EQ(back.max_us, 6800);
  EXPECT_DOUBLE_EQ(back.spin_lead_us, 868.375);
  EXPECT_DOUBLE_EQ(back.spin_budget, 0.5);
  EXPECT_FALSE(back.given);
  EXPECT_EQ(info.environment["timer_floor"]["source"], "measured");
  // A file written before the budget could scale down: its low is where it was chosen.
  info.environment["timer_floor"].erase("spin_budget_low");
  EXPECT_DOUBLE_EQ(timer_floor_of(info).spin_budget_low, 0.5);
}

TEST(TimerFloorRecord, TheSpinBudgetSpentAndAGivenFloorAreStoredAndReadBack) {
  RunInfo info;
  TimerFloor f;
  f.samples = 1;
  f.gap_us = 500;
  f.p50_us = f.p99_us = f.max_us = 4000;
  f.given = true;
  f.spin_budget = 0.25;
  f.spin_budget_low = 0.125;
  f.spin_spent = 0.0625;
  set_timer_floor(info, f);
  EXPECT_EQ(info.environment["timer_floor"]["source"], "OPENLOOP_TIMER_FLOOR_US");
  const TimerFloor back = timer_floor_of(info);
  EXPECT_TRUE(back.given);
  EXPECT_DOUBLE_EQ(back.spin_budget, 0.25);
  EXPECT_DOUBLE_EQ(back.spin_budget_low, 0.125);
  EXPECT_DOUBLE_EQ(back.spin_spent, 0.0625);
}

TEST(TimerFloorRecord, NotMeasuredLeavesNothingAndMalformedReadsAsNotMeasured) {
  RunInfo info;
  set_timer_floor(info, TimerFloor{});
  EXPECT_TRUE(info.environment.is_null());
  EXPECT_EQ(timer_floor_of(info).samples, 0U);
  info.environment = {{"timer_floor", {{"samples", 10}, {"gap_us", 50}, {"p50_us", "fast"}}}};
  EXPECT_EQ(timer_floor_of(info).samples, 0U);
  info.environment = {{"timer_floor", 3}};
  EXPECT_EQ(timer_floor_of(info).samples, 0U);
}

TEST(TimerFloorRecord, TheDuringRunFigureIsStoredReadBackAndDroppedForAWindow) {
  RunInfo info;
  TimerFloor f;
  f.samples = 120;
  f.gap_us = 500;
  f.p50_us = 40;
  f.p99_us = 90;
  f.max_us = 160;
  f.run_samples = 3000;
  f.run_p50_us = 45;
  f.run_p99_us = 1200.5;
  f.run_max_us = 8000;
  f.spin_budget = 0.5;
  f.spin_budget_low = 0.1;
  f.spin_spent = 0.05;
  set_timer_floor(info, f);
  EXPECT_DOUBLE_EQ(info.environment["timer_floor"]["during_run"]["p99_us"].get<double>(), 1200.5);
  TimerFloor back = timer_floor_of(info);
  EXPECT_EQ(back.run_samples, 3000U);
  EXPECT_DOUBLE_EQ(back.run_p50_us, 45);
  EXPECT_DOUBLE_EQ(back.run_p99_us, 1200.5);
  EXPECT_DOUBLE_EQ(back.run_max_us, 8000);
  drop_run_timer_floor(info);
  back = timer_floor_of(info);
  EXPECT_EQ(back.samples, 120U);  // the floor before the run stays
  EXPECT_EQ(back.run_samples, 0U);
  EXPECT_DOUBLE_EQ(back.run_p99_us, 0);
  // The budget as chosen stays; how far the run's wait for a CPU scaled it, and what it spent, are the run's.
  EXPECT_DOUBLE_EQ(back.spin_budget, 0.5);
  EXPECT_DOUBLE_EQ(back.spin_budget_low, 0.5);
  EXPECT_DOUBLE_EQ(back.spin_spent, 0);
  // A malformed during_run reads as not measured, the floor before the run still read.
  info.environment["timer_floor"]["during_run"] = {{"samples", 5}, {"p50_us", 1}};
  back = timer_floor_of(info);
  EXPECT_EQ(back.samples, 120U);
  EXPECT_EQ(back.run_samples, 0U);
}
