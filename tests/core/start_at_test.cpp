#include "core/start_at.h"

#include "core/sha256.h"

#include <vector>

#include <gtest/gtest.h>

namespace openloop {
namespace {

using namespace std::chrono_literals;

WallTime at(const char* text) {
  return *parse_rfc3339(text, "--start-at");
}

TEST(Rfc3339, ParsesUtcOffsetsAndFractions) {
  EXPECT_DOUBLE_EQ(unix_seconds(at("2026-12-01T10:00:00Z")), 1796119200.0);
  EXPECT_EQ(at("2026-12-01T11:00:00+01:00"), at("2026-12-01T10:00:00Z"));
  EXPECT_EQ(at("2026-12-01T05:30:00-04:30"), at("2026-12-01T10:00:00Z"));
  EXPECT_EQ(at("2026-12-01T10:00:00.25Z") - at("2026-12-01T10:00:00Z"), 250ms);
  EXPECT_EQ(at("2024-02-29t00:00:00z") - at("2024-02-28T00:00:00Z"), 24h);
  EXPECT_EQ(format_rfc3339(at("2026-12-01T10:00:00.5Z")), "2026-12-01T10:00:00.500000Z");
}

TEST(Rfc3339, RefusesWhatIsNotAnRfc3339TimeNamingTheFlag) {
  for (const char* bad : {"", "2026-12-01", "2026-12-01T10:00:00", "2026-13-01T10:00:00Z",
                          "2026-02-29T10:00:00Z", "2026-12-01T24:00:00Z", "2026-12-01T10:00:00+1:00",
                          "2026-12-01T10:00:00Zjunk", "2026-12-01T10:00:00.Z", "tomorrow"}) {
    const auto r = parse_rfc3339(bad, "--start-at");
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().code, ExitCode::usage);
    EXPECT_NE(r.error().message.find("--start-at"), std::string::npos);
    EXPECT_NE(r.error().message.find("2026-12-01T10:00:00Z"), std::string::npos) << "names the accepted form";
  }
}

TEST(Rfc3339, RefusesTimesBeyondANanosecondClock) {
  // Nanoseconds since 1970 in 64 bits end in 2262 and begin in 1677: found by the trace fuzzers (signed overflow).
  for (const char* beyond : {"2300-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "1600-01-01T00:00:00Z"}) {
    const auto r = parse_rfc3339(beyond, "--start-at");
    ASSERT_FALSE(r) << beyond;
    EXPECT_NE(r.error().message.find("mid-1678 to mid-2261"), std::string::npos) << r.error().message;
  }
  EXPECT_TRUE(parse_rfc3339("2261-01-01T00:00:00Z", "--start-at"));
  EXPECT_TRUE(parse_rfc3339("1679-01-01T00:00:00Z", "--start-at"));
}

// A sleep that records what it was asked for and moves the fake wall clock by that much (or `skew` more).
struct FakeSleep {
  explicit FakeSleep(ManualWallClock& c) : clock(c) {}
  ManualWallClock& clock;
  std::vector<Nanos> asked;
  Nanos overshoot{0};
  bool interrupt = false;
  InterruptibleSleep fn() {
    return [this](Nanos d) {
      asked.push_back(d);
      if (interrupt) return false;
      clock.advance(d + overshoot);
      return true;
    };
  }
};

TEST(WaitForStart, SleepsOnceUntilTheStartLessTheLead) {
  ManualWallClock clock(at("2026-12-01T09:59:55Z"));
  FakeSleep sleep(clock);
  const StartPlan plan{at("2026-12-01T10:00:00Z"), 1s, 20ms};
  const auto late = wait_for_start(plan, clock, sleep.fn());
  ASSERT_TRUE(late) << late.error().message;
  EXPECT_EQ(*late, -20ms);  // woke the lead before the start
  ASSERT_EQ(sleep.asked.size(), 1u);
  EXPECT_EQ(sleep.asked[0], 4980ms);
}

TEST(WaitForStart, AStartedLateShardExits75WithoutWaiting) {
  ManualWallClock clock(at("2026-12-01T10:00:02Z"));
  FakeSleep sleep(clock);
  const auto late = wait_for_start({at("2026-12-01T10:00:00Z"), 1s, 0ns}, clock, sleep.fn());
  ASSERT_FALSE(late);
  EXPECT_EQ(late.error().code, ExitCode::late_start);
  EXPECT_EQ(static_cast<int>(late.error().code), 75);
  EXPECT_NE(late.error().message.find("--max-late"), std::string::npos);
  EXPECT_TRUE(sleep.asked.empty());
}

TEST(WaitForStart, LateWithinMaxLateRunsAndReportsTheLateness) {
  ManualWallClock clock(at("2026-12-01T10:00:00.4Z"));
  FakeSleep sleep(clock);
  const auto late = wait_for_start({at("2026-12-01T10:00:00Z"), 1s, 0ns}, clock, sleep.fn());
  ASSERT_TRUE(late);
  EXPECT_EQ(*late, 400ms);
}

TEST(WaitForStart, AnOversleepBeyondMaxLateIsLateToo) {
  ManualWallClock clock(at("2026-12-01T09:59:59Z"));
  FakeSleep sleep(clock);
  sleep.overshoot = 1500ms;  // a suspended VM, a stopped process
  const auto late = wait_for_start({at("2026-12-01T10:00:00Z"), 1s, 0ns}, clock, sleep.fn());
  ASSERT_FALSE(late);
  EXPECT_EQ(late.error().code, ExitCode::late_start);
}

TEST(WaitForStart, AWallClockSteppedBackWaitsAgainBoundedly) {
  ManualWallClock clock(at("2026-12-01T09:59:59Z"));
  FakeSleep sleep(clock);
  sleep.overshoot = -500ms;  // the clock was stepped back while sleeping
  const auto late = wait_for_start({at("2026-12-01T10:00:00Z"), 1s, 0ns}, clock, sleep.fn());
  ASSERT_TRUE(late);
  EXPECT_GT(sleep.asked.size(), 1u);
  EXPECT_LE(sleep.asked.size(), 8u);
}

TEST(WaitForStart, CtrlCEndsTheWaitAsAnInterruption) {
  ManualWallClock clock(at("2026-12-01T09:00:00Z"));
  FakeSleep sleep(clock);
  sleep.interrupt = true;
  const auto late = wait_for_start({at("2026-12-01T10:00:00Z"), 1s, 0ns}, clock, sleep.fn());
  ASSERT_FALSE(late);
  EXPECT_EQ(late.error().code, ExitCode::interrupted);
  EXPECT_EQ(sleep.asked.size(), 1u);
}

TEST(WaitForStart, RefusesAStartBeyondTheLongestWait) {
  ManualWallClock clock(at("2026-11-01T10:00:00Z"));
  FakeSleep sleep(clock);
  const auto late = wait_for_start({at("2026-12-01T10:00:00Z"), 1s, 0ns}, clock, sleep.fn());
  ASSERT_FALSE(late);
  EXPECT_EQ(late.error().code, ExitCode::usage);
  EXPECT_TRUE(sleep.asked.empty());
}

TEST(WallClockBound, IsReadWithoutChangingTheClock) {
  const ClockBound b = wall_clock_bound();
  if (!b.known) GTEST_SKIP() << "adjtimex not available";
  EXPECT_GE(b.maxerror_s, 0);
  EXPECT_GE(b.esterror_s, 0);
}

TEST(Sha256, MatchesTheStandardVector) {
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

}  // namespace
}  // namespace openloop
