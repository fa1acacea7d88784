// Merging shards' interval logs: aligned by offset from each log's own start, histograms added exactly, and each
// input that does not add refused by name.
#include "hdr/interval_log_merge.h"

#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <string>
#include <vector>

namespace openloop::hdr {
namespace {

using namespace std::chrono_literals;
using std::chrono::milliseconds;

struct Line {
  milliseconds start;
  milliseconds length;
  std::vector<std::int64_t> values;
  std::string tag;
  int digits = 3;
};

// A log written by the writer (StartTime = BaseTime = start_ms), parsed back as merge reads it.
NamedIntervalLog log_of(const std::string& name, std::int64_t start_ms, const std::vector<Line>& lines) {
  std::ostringstream out;
  IntervalLogWriter writer(out);
  writer.write_header(std::chrono::system_clock::time_point(milliseconds(start_ms)));
  for (const Line& l : lines) {
    Histogram h(1, 3600000000000, l.digits);
    for (std::int64_t v : l.values) h.record(v);
    EXPECT_TRUE(writer.write_interval(l.start, l.length, h, l.tag));
  }
  auto parsed = parse_interval_log(out.str(), name);
  EXPECT_TRUE(parsed) << (parsed ? "" : parsed.error().message);
  return {name, *parsed};
}

TEST(IntervalLogMerge, IntervalsAtTheSameOffsetAndTagAddExactly) {
  // Shard b started 3 ms after shard a: interval k of each still holds the same intended times.
  const auto merged = merge_interval_logs(
      {log_of("a.hlog", 1'700'000'000'000, {{0ms, 1000ms, {1000, 2000}, "response_time"},
                                              {0ms, 1000ms, {10}, "send_lateness"},
                                              {1000ms, 1000ms, {5000}, "response_time"}}),
       log_of("b.hlog", 1'700'000'000'003, {{0ms, 1000ms, {3000}, "response_time"},
                                              {1000ms, 1000ms, {7000, 9000}, "response_time"},
                                              {2000ms, 1000ms, {4}, "response_time"}})},
      1.0);
  ASSERT_TRUE(merged) << merged.error().message;
  EXPECT_DOUBLE_EQ(merged->start_time_seconds, 1'700'000'000.0);
  EXPECT_NEAR(merged->start_skew_seconds, 0.003, 1e-6);
  ASSERT_EQ(merged->intervals.size(), 4u);  // in offset order: 0 response, 0 lateness, 1 s, 2 s
  EXPECT_EQ(merged->intervals[0].tag, "response_time");
  EXPECT_EQ(merged->intervals[0].histogram.total_count(), 3);
  EXPECT_EQ(merged->intervals[0].histogram.max(), merged->intervals[0].histogram.highest_equivalent(3000));
  EXPECT_EQ(merged->intervals[1].tag, "send_lateness");
  EXPECT_EQ(merged->intervals[1].histogram.total_count(), 1);
  EXPECT_DOUBLE_EQ(merged->intervals[2].start.count(), 1.0);
  EXPECT_EQ(merged->intervals[2].histogram.total_count(), 3);
  EXPECT_EQ(merged->intervals[3].histogram.total_count(), 1);  // only b reached the third interval

  // Written and read back: the same intervals, on the earliest start.
  const auto text = render_merged_interval_log(*merged, "[merged]");
  ASSERT_TRUE(text);
  const auto back = parse_interval_log(*text, "merged.hlog");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_DOUBLE_EQ(*back->start_time_seconds, 1'700'000'000.0);
  ASSERT_EQ(back->intervals.size(), 4u);
  for (std::size_t k = 0; k < 4; ++k) {
    EXPECT_EQ(back->intervals[k].histogram, merged->intervals[k].histogram) << k;
    EXPECT_EQ(back->intervals[k].tag, merged->intervals[k].tag) << k;
  }
}

TEST(IntervalLogMerge, RefusesStartsFurtherApartThanTheSkewBound) {
  const auto merged = merge_interval_logs({log_of("a.hlog", 1'700'000'000'000, {{0ms, 1000ms, {1}, ""}}),
                                           log_of("b.hlog", 1'700'000'002'500, {{0ms, 1000ms, {1}, ""}})},
                                          1.0);
  ASSERT_FALSE(merged);
  EXPECT_NE(merged.error().message.find("b.hlog started 2.500s after a.hlog"), std::string::npos)
      << merged.error().message;
  EXPECT_NE(merged.error().message.find("--max-skew"), std::string::npos);
}

TEST(IntervalLogMerge, RefusesIntervalsOfDifferentLengthsAtOneOffset) {
  const auto merged = merge_interval_logs({log_of("a.hlog", 1'700'000'000'000, {{0ms, 1000ms, {1}, "x"}}),
                                           log_of("b.hlog", 1'700'000'000'000, {{0ms, 5000ms, {1}, "x"}})},
                                          1.0);
  ASSERT_FALSE(merged);
  EXPECT_NE(merged.error().message.find("b.hlog:"), std::string::npos) << merged.error().message;
  EXPECT_NE(merged.error().message.find("5.000s long where a.hlog has 1.000s"), std::string::npos);
}

TEST(IntervalLogMerge, RefusesHistogramsOfOtherPrecision) {
  const auto merged = merge_interval_logs({log_of("a.hlog", 1'700'000'000'000, {{0ms, 1000ms, {1}, "x", 3}}),
                                           log_of("b.hlog", 1'700'000'000'000, {{0ms, 1000ms, {1}, "x", 2}})},
                                          1.0);
  ASSERT_FALSE(merged);
  EXPECT_NE(merged.error().message.find("2 significant digits"), std::string::npos) << merged.error().message;
}

TEST(IntervalLogMerge, RefusesOneLogWithTwoHistogramsForOneSlot) {
  const auto merged = merge_interval_logs(
      {log_of("a.hlog", 1'700'000'000'000, {{0ms, 1000ms, {1}, "x"}, {0ms, 1000ms, {2}, "x"}}),
       log_of("b.hlog", 1'700'000'000'000, {{0ms, 1000ms, {1}, "x"}})},
      1.0);
  ASSERT_FALSE(merged);
  EXPECT_NE(merged.error().message.find("a.hlog:6: a second x interval at 0.000s (line 5 has one)"),
            std::string::npos)
      << merged.error().message;
}

TEST(IntervalLogMerge, RefusesALogWithoutAStartTimeAndFewerThanTwoLogs) {
  auto bare = parse_interval_log("0.000,1.000,0.001,HISTFAAAACh42pNpmSzMwMDAzgABzFCaEch0M9ixgMH+A0TgPD/T+3WMTAB5NQbS\n",
                                 "bare.hlog");
  ASSERT_TRUE(bare) << bare.error().message;
  auto merged = merge_interval_logs({log_of("a.hlog", 1'700'000'000'000, {}), {"bare.hlog", *bare}}, 1.0);
  ASSERT_FALSE(merged);
  EXPECT_NE(merged.error().message.find("bare.hlog: has no #[StartTime"), std::string::npos);
  merged = merge_interval_logs({log_of("a.hlog", 1'700'000'000'000, {})}, 1.0);
  ASSERT_FALSE(merged);
  EXPECT_NE(merged.error().message.find("two or more"), std::string::npos);
}

}  // namespace
}  // namespace openloop::hdr
