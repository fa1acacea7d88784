#include "core/contention.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

using namespace openloop;

TEST(Contention, ReadsTheStealAndTheTotalOfTheMachinesCpuLine) {
  const auto t = parse_cpu_ticks(
      "cpu  289259 3430 30492 4260979 877 0 7764 20074 0 0\ncpu0 144071 1974 15024 2131620 549 0 3333 9617 0 0\n");
  ASSERT_TRUE(t);
  EXPECT_DOUBLE_EQ(t->steal, 20074);
  EXPECT_DOUBLE_EQ(t->total, 289259 + 3430 + 30492 + 4260979 + 877 + 0 + 7764 + 20074);
  // An old kernel's line without steal, a per-CPU line first, or no text: unknown, never 0.
  EXPECT_FALSE(parse_cpu_ticks("cpu  1 2 3 4 5 6 7\n"));
  EXPECT_FALSE(parse_cpu_ticks("cpu0 1 2 3 4 5 6 7 8\n"));
  EXPECT_FALSE(parse_cpu_ticks(""));
}

TEST(Contention, TheStealShareIsTheStolenPartOfTheTimeBetweenTwoReadings) {
  const CpuTicks before{100, 10'000};
  const auto s = steal_share(before, CpuTicks{287, 11'000});
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(*s, 0.187);
  EXPECT_FALSE(steal_share(before, before));  // no time passed: no share
  EXPECT_DOUBLE_EQ(*steal_share(before, CpuTicks{90, 10'500}), 0.0);  // never negative
}

TEST(Contention, TheRunDelayIsTheSecondFieldOfSchedstat) {
  const auto d = parse_run_delay("2286798035 35415410 74148\n");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->count(), 35'415'410);
  EXPECT_FALSE(parse_run_delay("2286798035\n"));
  EXPECT_FALSE(parse_run_delay(""));
}

TEST(Contention, ThisMachineAnswersBothWhereItsKernelKeepsThem) {
  if (!std::filesystem::exists("/proc/thread-self/schedstat")) GTEST_SKIP() << "no schedstat in this kernel";
  const auto before = thread_run_delay();
  ASSERT_TRUE(before);
  const auto after = thread_run_delay();
  ASSERT_TRUE(after);
  EXPECT_GE(*after, *before);  // a counter: it never goes back
  const auto ticks = read_cpu_ticks();
  ASSERT_TRUE(ticks);
  EXPECT_GT(ticks->total, 0);
  EXPECT_LE(ticks->steal, ticks->total);
}
