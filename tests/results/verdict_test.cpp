#include "results/verdict.h"

#include <gtest/gtest.h>

using namespace openloop::results;

namespace {
RunResults open_run(std::uint64_t intended, std::uint64_t sent, std::uint64_t dropped) {
  RunResults r;
  r.info.model = "open";
  r.measured_s = 10;
  r.totals.intended = intended;
  r.totals.sent = sent;
  r.totals.completed = sent;
  r.totals.ok = sent;
  r.totals.status_class[2] = sent;
  r.totals.dropped = dropped;
  return r;
}
}  // namespace

TEST(Verdict, ValidWhenTheLoadWasApplied) {
  auto r = open_run(1000, 1000, 0);
  r.send_lateness.record(50'000);
  EXPECT_TRUE(judge(r).valid);
}

TEST(Verdict, InvalidWhenMoreThanOnePercentDropped) {
  auto r = open_run(1000, 980, 20);
  const Verdict v = judge(r);
  EXPECT_FALSE(v.valid);
  ASSERT_FALSE(v.reasons.empty());
  EXPECT_NE(v.reasons[0].find("dropped 20 of 1000"), std::string::npos);
}

TEST(Verdict, InvalidWhenSendLatenessP99ExceedsItsBound) {
  auto r = open_run(1000, 1000, 0);  // mean gap 10 ms → bound max(1 ms, 1 ms) = 1 ms
  for (int i = 0; i < 100; ++i) r.send_lateness.record(5'000'000);
  const Verdict v = judge(r);
  EXPECT_FALSE(v.valid);
  EXPECT_NE(v.reasons.back().find("send lateness p99"), std::string::npos);
}

TEST(Verdict, InvalidWhenTheGeneratorCpuWasSaturated) {
  auto r = open_run(1000, 1000, 0);
  r.generator.threads = 2;
  r.generator.wall_seconds = 10;
  r.generator.cpu_seconds = 19;
  EXPECT_FALSE(judge(r).valid);
}

TEST(Verdict, SpinningThroughShortWaitsIsNotSaturation) {
  auto r = open_run(1000, 1000, 0);
  r.generator.threads = 1;
  r.generator.wall_seconds = 10;
  r.generator.cpu_seconds = 9.8;   // 98 % of the thread...
  r.generator.spin_seconds = 4.0;  // ...of which 40 % polling through waits too short to sleep on: 58 % busy
  EXPECT_TRUE(judge(r).valid);
  r.generator.spin_seconds = 0.5;  // 93 % busy
  const Verdict v = judge(r);
  ASSERT_FALSE(v.valid);
  EXPECT_NE(v.reasons.back().find("generator CPU 93%"), std::string::npos) << v.reasons.back();
}

TEST(Verdict, ClosedRunsAreNotJudgedOnSchedule) {
  auto r = open_run(1000, 900, 0);
  r.totals.unfinished = 100;  // the counts still balance
  r.info.model = "closed";
  EXPECT_TRUE(judge(r).valid);
}

TEST(Verdict, InvalidWhenAnIntervalsCountsDoNotAddUp) {
  auto r = open_run(1000, 1000, 0);
  IntervalResult good, bad;
  good.counters = r.totals;
  bad.start_s = 3;
  bad.counters = r.totals;
  bad.counters.status_class[2] = 999;  // one 2xx short: a completed request without a status
  r.intervals = {good, bad};
  const Verdict v = judge(r);
  ASSERT_FALSE(v.valid);
  EXPECT_NE(v.reasons.back().find("the counts do not add up in the interval at 3s: the status classes add up "
                                  "to 999, but completed is 1000"),
            std::string::npos)
      << v.reasons.back();
}

TEST(Verdict, InvalidWhenOkExceedsCompleted) {
  auto r = open_run(1000, 1000, 0);
  r.totals.ok = 1001;
  const Verdict v = judge(r);
  ASSERT_FALSE(v.valid);
  EXPECT_NE(v.reasons.back().find("in the totals: expected ok 1001 ≤ completed 1000"), std::string::npos)
      << v.reasons.back();
}
