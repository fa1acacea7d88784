// .hlog writing byte-identical to Java's HistogramLogWriter, and parsing with line-numbered errors.
#include "hdr/interval_log.h"

#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <string>

namespace openloop::hdr {
namespace {

using namespace std::chrono_literals;

constexpr std::string_view k_sample =
    "#[Histogram log format version 1.3]\n"
    "#[StartTime: 1441812279.474 (seconds since epoch), Wed Sep 09 15:24:39 UTC 2015]\n"
    "#[BaseTime: 1441812279.474 (seconds since epoch)]\n"
    "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n"
    "0.127,1.007,2.001,HISTFAAAACh42pNpmSzMwMDAzgABzFCaEch0M9ixgMH+A0TgPD/T+3WMTAB5NQbS\n"
    "Tag=A,0.127,1.007,2.001,HISTFAAAACh42pNpmSzMwMDAzgABzFCaEch0M9ixgMH+A0TgPD/T+3WMTAB5NQbS\n";

std::chrono::system_clock::time_point sample_start() {
  return std::chrono::system_clock::time_point(std::chrono::milliseconds(1441812279474));
}

Histogram sample_histogram() {
  Histogram h(1, 3600000000000, 3);
  h.record(1000);
  h.record(2000000);
  return h;
}

TEST(IntervalLogWriter, WritesTheReferenceSampleByteForByte) {
  std::ostringstream out;
  IntervalLogWriter writer(out);
  writer.write_header(sample_start());
  ASSERT_TRUE(writer.write_interval(127ms, 1007ms, sample_histogram()));
  ASSERT_TRUE(writer.write_interval(127ms, 1007ms, sample_histogram(), "A"));
  EXPECT_EQ(out.str(), k_sample);
}

TEST(IntervalLogWriter, MaxColumnUsesTheUnitRatio) {
  std::ostringstream out;
  IntervalLogWriter writer(out, 1.0);
  ASSERT_TRUE(writer.write_interval(0ms, 1s, sample_histogram()));
  EXPECT_TRUE(out.str().starts_with("0.000,1.000,2000895.000,HISTFAAAA")) << out.str();
}

TEST(IntervalLogWriter, RejectsTagsWithDelimiters) {
  std::ostringstream out;
  IntervalLogWriter writer(out);
  for (const char* tag : {"a,b", "a b", "a\nb"}) {
    auto result = writer.write_interval(0ms, 1s, sample_histogram(), tag);
    ASSERT_FALSE(result) << tag;
    EXPECT_EQ(result.error().code, ExitCode::usage);
  }
  EXPECT_TRUE(out.str().empty());
}

TEST(IntervalLogWriter, CommentsStayOnOneLine) {
  std::ostringstream out;
  IntervalLogWriter writer(out);
  writer.write_comment("target http://x\nsecond");
  EXPECT_EQ(out.str(), "#target http://x second\n");
}

TEST(IntervalLogReader, ParsesTheReferenceSample) {
  auto log = parse_interval_log(k_sample);
  ASSERT_TRUE(log) << log.error().message;
  EXPECT_EQ(log->format_version, "1.3");
  ASSERT_TRUE(log->start_time_seconds);
  EXPECT_DOUBLE_EQ(*log->start_time_seconds, 1441812279.474);
  ASSERT_TRUE(log->base_time_seconds);
  ASSERT_EQ(log->intervals.size(), 2u);
  const auto& first = log->intervals[0];
  EXPECT_EQ(first.tag, "");
  EXPECT_DOUBLE_EQ(first.start.count(), 0.127);
  EXPECT_DOUBLE_EQ(first.length.count(), 1.007);
  EXPECT_DOUBLE_EQ(first.max_column, 2.001);
  EXPECT_EQ(first.line, 5u);
  EXPECT_TRUE(first.histogram == sample_histogram());
  EXPECT_EQ(log->intervals[1].tag, "A");
  EXPECT_NEAR(log->absolute_start_seconds(first), 1441812279.601, 1e-6);
}

TEST(IntervalLogReader, WithoutBaseTimeSmallTimestampsAreOffsetsFromStartTime) {
  std::string text(k_sample);
  text.erase(text.find("#[BaseTime"), text.find('\n', text.find("#[BaseTime")) - text.find("#[BaseTime") + 1);
  auto log = parse_interval_log(text);
  ASSERT_TRUE(log) << log.error().message;
  EXPECT_FALSE(log->base_time_seconds);
  EXPECT_NEAR(log->absolute_start_seconds(log->intervals[0]), 1441812279.601, 1e-6);

  auto absolute = parse_interval_log(
      "1441812280.000,1.000,2.001,HISTFAAAACh42pNpmSzMwMDAzgABzFCaEch0M9ixgMH+A0TgPD/T+3WMTAB5NQbS\n");
  ASSERT_TRUE(absolute) << absolute.error().message;
  EXPECT_DOUBLE_EQ(absolute->absolute_start_seconds(absolute->intervals[0]), 1441812280.0);
}

TEST(IntervalLogReader, KeepsUnknownCommentsAndSkipsBlankLinesAndCarriageReturns) {
  auto log = parse_interval_log(
      "#openloop run 7\r\n\r\n#[Histogram log format version 1.3]\r\n"
      "0.000,1.000,2.001,HISTFAAAACh42pNpmSzMwMDAzgABzFCaEch0M9ixgMH+A0TgPD/T+3WMTAB5NQbS\r\n");
  ASSERT_TRUE(log) << log.error().message;
  ASSERT_EQ(log->comments.size(), 1u);
  EXPECT_EQ(log->comments[0], "openloop run 7");
  EXPECT_EQ(log->intervals.size(), 1u);
  EXPECT_EQ(log->intervals[0].line, 4u);
}

TEST(IntervalLogReader, RoundTripsWhatTheWriterWrites) {
  std::ostringstream out;
  IntervalLogWriter writer(out);
  writer.write_header(sample_start());
  Histogram h(1, 3600000000000, 3);
  for (int i = 1; i <= 5; ++i) {
    h.record(i * 123457);
    ASSERT_TRUE(writer.write_interval(std::chrono::seconds(i), 1s, h, i % 2 ? "odd" : ""));
  }
  auto log = parse_interval_log(out.str());
  ASSERT_TRUE(log) << log.error().message;
  ASSERT_EQ(log->intervals.size(), 5u);
  EXPECT_EQ(log->intervals[4].histogram.total_count(), 5);
  EXPECT_TRUE(log->intervals[4].histogram == h);
  EXPECT_EQ(log->intervals[0].tag, "odd");
  EXPECT_EQ(log->intervals[1].tag, "");
}

TEST(IntervalLogReader, BadLinesNameTheLineAndWhatWasExpected) {
  const struct {
    const char* text;
    const char* needle;
  } cases[] = {
      {"#c\n0.1,1.0,HISTFAAAACh42pNpmSzMwMDAzgABzFCaEch0M9ixgMH+A0TgPD/T+3WMTAB5NQbS\n",
       "run.hlog:2: expected"},
      {"x,1.0,2.0,HISTFAAAACh42pNpmSzMwMDAzgABzFCaEch0M9ixgMH+A0TgPD/T+3WMTAB5NQbS\n",
       "run.hlog:1: expected a number for start"},
      {"0.1,1.0,zz,HISTFAAAACh42pNpmSzMwMDAzgABzFCaEch0M9ixgMH+A0TgPD/T+3WMTAB5NQbS\n", "number for max"},
      {"\n\n0.1,1.0,2.0,HISTFAAAACh42pNp\n", "run.hlog:3: bad compressed histogram"},
      {"0.1,1.0,2.0,not*base64\n", "base64"},
      {"#[StartTime: soon]\n", "run.hlog:1: expected seconds since the epoch"},
      {"Tag=A,0.1,1.0\n", "got 2 fields"},
  };
  for (const auto& c : cases) {
    auto log = parse_interval_log(c.text, "run.hlog");
    ASSERT_FALSE(log) << c.text;
    EXPECT_EQ(log.error().code, ExitCode::usage);
    EXPECT_NE(log.error().message.find(c.needle), std::string::npos) << log.error().message;
  }
}

TEST(IntervalLogReader, MissingFileIsAnErrorNamingThePath) {
  auto log = read_interval_log("/nonexistent/dir/run.hlog");
  ASSERT_FALSE(log);
  EXPECT_NE(log.error().message.find("/nonexistent/dir/run.hlog"), std::string::npos);
}

}  // namespace
}  // namespace openloop::hdr
