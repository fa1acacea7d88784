// --until: parsing the targets, judging them on a histogram (met, not met with an honest extrapolation), and
// the watcher's stop, on results built by hand (no clock).
#include "results/judging/until.h"

#include <gtest/gtest.h>

#include <random>

#include "results/run_results.h"

namespace openloop::results {
namespace {

TEST(UntilParse, AcceptsTheDocumentedForms) {
  for (const char* text : {"p99:±5%", "p99:+-5%", "p99:+/-5%", "p99:5%", "P99:±5%"}) {
    const auto t = parse_until(text);
    ASSERT_TRUE(t) << text << ": " << t.error().message;
    EXPECT_DOUBLE_EQ(t->percentile, 99);
    EXPECT_DOUBLE_EQ(t->relative, 0.05);
  }
  const auto t = parse_until("p99.9:±10%");
  ASSERT_TRUE(t);
  EXPECT_DOUBLE_EQ(t->percentile, 99.9);
  EXPECT_DOUBLE_EQ(t->relative, 0.10);
}

TEST(UntilParse, RefusesWithTheFlagAndTheForm) {
  for (const char* text : {"", "p99", "99:±5%", "p100:±5%", "p0:±5%", "p99:±5", "p99:±0%", "p99:±100%",
                           "p99:±x%", "px:±5%", "p99:±-5%"}) {
    const auto t = parse_until(text);
    ASSERT_FALSE(t) << text;
    EXPECT_EQ(t.error().code, ExitCode::usage);
    EXPECT_NE(t.error().message.find("--until"), std::string::npos);
    EXPECT_NE(t.error().message.find("p99:±5%"), std::string::npos);
  }
}

// n exponential samples with mean 1 ms.
hdr::Histogram exponential(std::size_t n, std::uint64_t seed) {
  hdr::Histogram h = make_latency_histogram();
  std::mt19937_64 rng(seed);
  std::exponential_distribution<double> d(1.0);
  for (std::size_t i = 0; i < n; ++i) record_ns(h, static_cast<std::int64_t>(d(rng) * 1e6) + 1);
  return h;
}

TEST(UntilJudge, ManySamplesMeetATargetFewDoNotAndTheExtrapolationIsHonest) {
  const auto p99 = *parse_until("p99:±5%");
  const auto many = judge_until({p99}, exponential(200'000, 1), 100);
  ASSERT_EQ(many.size(), 1U);
  EXPECT_TRUE(many[0].met) << many[0].sentence();
  EXPECT_EQ(many[0].more_seconds, 0);
  // 2,000 samples in 10 s: p99's rank spread is 1.96·√(2000·0.99·0.01) = 8.7 ranks, where the exponential's
  // density is 0.01 per unit of mean: ±0.44 of a value of 4.6 means, ±9.5 %, so not met; the extrapolation
  // (half-width ∝ 1/√n) must say (w/5 %)² · 2,000 samples at 200/s.
  const auto few = judge_until({p99}, exponential(2'000, 2), 10);
  ASSERT_FALSE(few[0].met);
  ASSERT_TRUE(few[0].achieved);
  const double expected = (2'000 * std::pow(*few[0].achieved / 0.05, 2) - 2'000) / 200;
  EXPECT_NEAR(few[0].more_seconds, expected, 1);
  EXPECT_GT(few[0].more_seconds, 1);
  EXPECT_NE(few[0].sentence().find("not enough samples for p99 ±5 %"), std::string::npos);
  EXPECT_NE(few[0].sentence().find("more seconds at this rate"), std::string::npos);
}

TEST(UntilJudge, AnOpenSideAsksForMoreAndCorrelationWidens) {
  // 500 samples cannot bound p99.9 from above at all.
  const auto t = *parse_until("p99.9:±10%");
  const auto o = judge_until({t}, exponential(500, 3), 5);
  ASSERT_FALSE(o[0].met);
  EXPECT_FALSE(o[0].achieved);
  EXPECT_GT(o[0].more_seconds, 5);
  // The same samples counted as a tenth as many independent ones: wider, so a target met on independent
  // samples may fail.
  const auto h = exponential(200'000, 4);
  const auto independent = judge_until({*parse_until("p99:±5%")}, h, 100, 1.0);
  const auto correlated = judge_until({*parse_until("p99:±5%")}, h, 100, 0.1);
  ASSERT_TRUE(independent[0].achieved && correlated[0].achieved);
  EXPECT_GT(*correlated[0].achieved, *independent[0].achieved * 2);
}

RunResults so_far(std::size_t intervals, const hdr::Histogram& h) {
  RunResults r;
  r.intervals.resize(intervals);  // 1 s each
  r.response_time.add(h);
  return r;
}

TEST(UntilWatcher, StopsOnlyAfterTheMinimumDurationAndOnce) {
  UntilWatcher w({*parse_until("p99:±5%")}, 10);
  std::atomic<int> stop{0};
  const auto h = exponential(200'000, 5);
  EXPECT_FALSE(w.stop_if_done(so_far(9, h), stop));  // met, but before --duration
  EXPECT_EQ(stop.load(), 0);
  EXPECT_TRUE(w.stop_if_done(so_far(10, h), stop));
  EXPECT_EQ(stop.load(), 1);
  EXPECT_FALSE(w.stop_if_done(so_far(11, h), stop));  // already stopped
  RunResults r = so_far(10, h);
  r.interrupted = true;  // the coordinator marks any stop
  r.measured_s = 10;
  w.mark(r, stop.load());
  EXPECT_FALSE(r.interrupted);
  ASSERT_EQ(r.checks.until.size(), 1U);
  EXPECT_TRUE(r.checks.until[0].met);
}

TEST(UntilWatcher, ASignalFirstKeepsTheInterruptionAndNothingStopsBeforeTheTargetHolds) {
  UntilWatcher w({*parse_until("p99:±1%")}, 1);
  std::atomic<int> stop{0};
  EXPECT_FALSE(w.stop_if_done(so_far(30, exponential(20'000, 6)), stop));  // ±1 % needs far more
  stop = 2;                                                               // Ctrl-C
  RunResults r = so_far(30, exponential(20'000, 6));
  r.interrupted = true;
  r.measured_s = 30;
  w.mark(r, stop.load());
  EXPECT_TRUE(r.interrupted);
  ASSERT_EQ(r.checks.until.size(), 1U);
  EXPECT_FALSE(r.checks.until[0].met);
}

}  // namespace
}  // namespace openloop::results
