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
