// The live view: progress, the latest finished second, and a verdict so far that turns INVALID as soon as it
// is.
#include "report/live_view.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "results/results_test_util.h"

namespace openloop::report {
namespace {

using ::testing::HasSubstr;
using namespace std::chrono_literals;

TEST(LiveView, ShowsWarmUpThenProgressAndTheLatestSecond) {
  LiveView view({2s, 10s, true, ""});
  auto lines = view.lines(1s, 200);
  EXPECT_THAT(lines[0], HasSubstr("warm-up 1s / 2s"));
  EXPECT_THAT(lines[0], HasSubstr("waiting for the first second"));
  view.update(test::make_run({{1000, 2000}, {3'000'000, 4'000'000}}, 1.0));
  lines = view.lines(5s, 200);
  EXPECT_THAT(lines[0], HasSubstr("3s / 10s"));
  EXPECT_THAT(lines[0], HasSubstr("VALID so far"));
  EXPECT_THAT(lines[1], HasSubstr("1–2s: offered 2.0/s  sent 2.0/s  p99 4ms"));
  EXPECT_THAT(lines[1], HasSubstr("dropped 0 (0.00%)  timeouts 0  errors 0"));
  EXPECT_THAT(lines[1], ::testing::Not(HasSubstr("in flight")));
  view.set_in_flight(7);
  EXPECT_THAT(view.lines(5s, 200)[1], HasSubstr("in flight 7"));
  EXPECT_THAT(view.plain_line(5s), ::testing::Not(HasSubstr("slot waits")));
}

TEST(LiveView, SlotWaitsShowOnceAnyArrivalWaited) {
  LiveView view({0s, 10s, true, ""});
  auto r = test::make_run({{1000, 2000, 3000, 4000}}, 1.0);
  r.totals.slot_waits = 1;
  view.update(r);
  EXPECT_THAT(view.lines(1s, 200)[1], HasSubstr("errors 0  slot waits 1 (25.00%)"));
  EXPECT_THAT(view.plain_line(1s), HasSubstr("slot waits 1 (25.00%)"));
}

TEST(LiveView, DropsOverOnePercentShowAsInvalidAtOnce) {
  LiveView view({0s, 30s, true, ""});
  std::vector<std::vector<std::int64_t>> second(1, std::vector<std::int64_t>(100, 1000));
  view.update(test::make_run(second, 1.0, "http://x/", {2}));
  EXPECT_TRUE(view.invalid_so_far());
  EXPECT_THAT(view.verdict_so_far(), HasSubstr("INVALID so far: dropped 1.96% > 1%"));
  EXPECT_THAT(view.plain_line(1s), HasSubstr("INVALID so far"));
}

TEST(LiveView, ClosedRunsHaveNoScheduleVerdict) {
  LiveView view({0s, 30s, false, ""});
  view.update(test::make_run({{1000}}, 1.0, "http://x/", {50}));
  EXPECT_FALSE(view.invalid_so_far());
  EXPECT_THAT(view.verdict_so_far(), HasSubstr("CLOSED"));
}

TEST(LiveView, AShardSaysWhichOneItIs) {
  LiveView view({0s, 30s, true, "shard 1/3"});
  view.update(test::make_run({{1000}}, 1.0));
  EXPECT_THAT(view.lines(1s, 200).front(), testing::StartsWith("openloop shard 1/3  1s / 30s"));
  EXPECT_THAT(view.plain_line(1s), testing::StartsWith("openloop: shard 1/3  1s / 30s"));
  EXPECT_THAT(LiveView({0s, 30s, true, ""}).plain_line(1s), testing::StartsWith("openloop: 1s / 30s"));
}

TEST(LiveView, LinesFitTheTerminalWidth) {
  LiveView view({0s, 30s, true, ""});
  view.update(test::make_run({{1000}}, 1.0));
  for (const auto& line : view.lines(1s, 40)) {
    std::size_t columns = 0;  // code points: "…" and "–" are 3 bytes, 1 column
    for (const char c : line) columns += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    EXPECT_LE(columns, 40U) << line;
    EXPECT_GT(columns, 30U) << line;
  }
  EXPECT_EQ(fit_columns("abcdef", 4), "abc…");
  EXPECT_EQ(fit_columns("µµµµ", 4), "µµµµ");
  EXPECT_EQ(fit_columns("µµµµµ", 4), "µµµ…");
  EXPECT_EQ(fit_columns("abc", 0), "");
}

TEST(LiveView, TheSamplersLatestValuesAreALineOfTheirOwn) {
  LiveView view({0s, 30s, true, ""});
  view.update(test::make_run({{1000}}, 1.0));
  EXPECT_EQ(view.lines(1s, 200).size(), 2U) << "no line before any value";
  EXPECT_EQ(view.observed_line(), "");
  view.set_observed({{"pid:42", "cpu_of_allowed", "CPU of its allowed cores", "share", 0.934},
                     {"pid:42", "runq_wait", "run-queue wait", "s/s", 0.41},
                     {"self", "cpu", "CPU (cores)", "cores", 0.124}});
  const auto lines = view.lines(1s, 200);
  ASSERT_EQ(lines.size(), 3U);
  EXPECT_EQ(
      lines[2],
      "  observed: pid:42 CPU of its allowed cores 0.93, run-queue wait 0.41s/s · generator CPU 0.12 cores");
  EXPECT_THAT(view.plain_line(1s), HasSubstr("  |  observed: pid:42 CPU of its allowed cores 0.93"));
  EXPECT_LE(view.lines(1s, 40)[2].size(), 42U);
}

}  // namespace
}  // namespace openloop::report
