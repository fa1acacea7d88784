// .hgrm and .hlog from report inputs: the reference vectors, and the same bytes from a results file and its
// .hlog.
#include "report/hgrm.h"

#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "hdr/interval_log.h"
#include "report/hlog_export.h"
#include "results/results_test_util.h"

namespace openloop::report {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// ../shared/reference/hdrhistogram.md §4: Histogram(1, 3600000000000, 3) holding 1..10, ratio 1, 5 ticks per
// half.
constexpr const char* k_reference_one_to_ten =
    "       Value     Percentile TotalCount 1/(1-Percentile)\n\n"
    "       1.000 0.000000000000          1           1.00\n"
    "       1.000 0.100000000000          1           1.11\n"
    "       2.000 0.200000000000          2           1.25\n"
    "       3.000 0.300000000000          3           1.43\n"
    "       4.000 0.400000000000          4           1.67\n"
    "       5.000 0.500000000000          5           2.00\n"
    "       6.000 0.550000000000          6           2.22\n"
    "       6.000 0.600000000000          6           2.50\n"
    "       7.000 0.650000000000          7           2.86\n"
    "       7.000 0.700000000000          7           3.33\n"
    "       8.000 0.750000000000          8           4.00\n"
    "       8.000 0.775000000000          8           4.44\n"
    "       8.000 0.800000000000          8           5.00\n"
    "       9.000 0.825000000000          9           5.71\n"
    "       9.000 0.850000000000          9           6.67\n"
    "       9.000 0.875000000000          9           8.00\n"
    "       9.000 0.887500000000          9           8.89\n"
    "       9.000 0.900000000000          9          10.00\n"
    "      10.000 0.912500000000         10          11.43\n"
    "      10.000 1.000000000000         10\n"
    "#[Mean    =        5.500, StdDeviation   =        2.872]\n"
    "#[Max     =       10.000, Total count    =           10]\n"
    "#[Buckets =           32, SubBuckets     =         2048]\n";

ReportInput from_log_text(const std::string& text) {
  auto log = hdr::parse_interval_log(text, "t.hlog");
  EXPECT_TRUE(log) << log.error().message;
  auto in = from_interval_log(std::move(*log), "t.hlog");
  EXPECT_TRUE(in);
  return std::move(*in);
}

// A two-interval untagged log (no StartTime: no StartTime line in the output) holding 1..4 and 5..10.
std::string one_to_ten_log() {
  std::ostringstream out;
  hdr::IntervalLogWriter writer(out);
  writer.write_format_version();
  writer.write_legend();
  hdr::Histogram a(1, 3600000000000, 3), b(1, 3600000000000, 3);
  for (int v = 1; v <= 4; ++v) a.record(v);
  for (int v = 5; v <= 10; ++v) b.record(v);
  EXPECT_TRUE(writer.write_interval(std::chrono::seconds(0), std::chrono::seconds(1), a));
  EXPECT_TRUE(writer.write_interval(std::chrono::seconds(1), std::chrono::seconds(1), b));
  return out.str();
}

TEST(Hgrm, ReproducesTheReferenceVectorFromAnHlog) {
  const ReportInput in = from_log_text(one_to_ten_log());
  auto text =
      render_hgrm(in, {.tag = "response_time", .ticks_per_half_distance = 5, .value_unit_ratio = 1.0});
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_EQ(*text, k_reference_one_to_ten);
}

TEST(Hgrm, ReferenceVectorWithMillisecondsAndStartTime) {
  // §5: Histogram(3600000000, 3), 1000 ×10000 then 100000000: mean 10996.417158284172, max 100007935.
  std::ostringstream out;
  hdr::IntervalLogWriter writer(out);
  writer.write_header(std::chrono::system_clock::time_point(std::chrono::milliseconds(1441812279474)));
  hdr::Histogram h(1, 3600000000, 3);
  h.record(1000, 10000);
  h.record(100000000);
  ASSERT_TRUE(
      writer.write_interval(std::chrono::milliseconds(127), std::chrono::milliseconds(1007), h, "rt"));
  const ReportInput in = from_log_text(out.str());
  auto text = render_hgrm(in, {.tag = "rt"});
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_THAT(
      *text,
      StartsWith("#[StartTime: 1441812279.474 (seconds since epoch), Wed Sep 09 15:24:39 UTC 2015]\n"));
  EXPECT_THAT(*text, HasSubstr("#[Mean    =        0.011, StdDeviation   =        1.000]\n"
                               "#[Max     =      100.008, Total count    =        10001]\n"));
  EXPECT_THAT(*text, HasSubstr("     100.008 1.000000000000      10001\n"));
}

TEST(Hgrm, ResultsFileAndItsHlogGiveTheSameBytes) {
  const auto run = test::make_run({{1000, 250000, 3000000}, {}, {40000000, 12345}}, 1700000000.123);
  ReportInput from_json;
  from_json.source = "r.json";
  from_json.results = run;
  auto log = render_interval_log(run);
  ASSERT_TRUE(log) << log.error().message;
  const ReportInput from_hlog = from_log_text(*log);
  for (const char* tag : k_latency_tags) {
    auto a = render_hgrm(from_json, {.tag = tag});
    auto b = render_hgrm(from_hlog, {.tag = tag});
    ASSERT_TRUE(a && b);
    EXPECT_EQ(*a, *b) << tag;
    EXPECT_THAT(*a, StartsWith("#[StartTime: 1700000000.123 (seconds since epoch)"));
  }
}

TEST(Hgrm, UnknownTagsAndBadOptionsAreUsageErrors) {
  const ReportInput in = from_log_text(one_to_ten_log());
  auto r = render_hgrm(in, {.tag = "nope"});
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message, HasSubstr("no interval lines tagged \"nope\" (tags present: (untagged))"));
  EXPECT_FALSE(render_hgrm(in, {.ticks_per_half_distance = 0}));
  EXPECT_FALSE(render_hgrm(in, {.value_unit_ratio = -1}));
  ReportInput json_in;
  json_in.results = test::make_run({{1000}}, 1.0);
  r = render_hgrm(json_in, {.tag = "latency"});
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message, HasSubstr("use response_time, service_time or send_lateness"));
}

TEST(HlogExport, OneLinePerIntervalAndTagFromTheRunStart) {
  const auto run = test::make_run({{1000, 2000}, {3000}}, 1700000000.5);
  auto text = render_interval_log(run);
  ASSERT_TRUE(text);
  auto log = hdr::parse_interval_log(*text, "r.hlog");
  ASSERT_TRUE(log) << log.error().message;
  EXPECT_EQ(log->format_version, "1.3");
  ASSERT_TRUE(log->start_time_seconds);
  EXPECT_DOUBLE_EQ(*log->start_time_seconds, 1700000000.5);
  ASSERT_EQ(log->intervals.size(), 6U);
  EXPECT_EQ(log->intervals[0].tag, "response_time");
  EXPECT_EQ(log->intervals[1].tag, "service_time");
  EXPECT_EQ(log->intervals[2].tag, "send_lateness");
  EXPECT_DOUBLE_EQ(log->intervals[3].start.count(), 1.0);
  EXPECT_EQ(log->intervals[0].histogram.total_count(), 2);
  EXPECT_EQ(log->intervals[3].histogram.total_count(), 1);
  EXPECT_DOUBLE_EQ(log->intervals[0].max_column, 0.002);  // 2000 ns as ms
}

TEST(ReportInput, HlogIntervalsGroupByStartAndKeepTheirTags) {
  const auto run = test::make_run({{1000, 2000}, {3000}}, 1700000000.5);
  const ReportInput in = from_log_text(*render_interval_log(run));
  EXPECT_FALSE(in.has_counts);
  ASSERT_EQ(in.results.intervals.size(), 2U);
  EXPECT_EQ(in.results.intervals[1].service_time.count, 1);
  EXPECT_EQ(in.results.response_time.total_count(), 3);
  EXPECT_DOUBLE_EQ(in.results.info.start_unix_s, 1700000000.5);
  EXPECT_DOUBLE_EQ(in.results.measured_s, 2.0);
}

TEST(ReportInput, BadHlogLineNamesFileAndLine) {
  auto in = load_report_input("/nonexistent.hlog");
  ASSERT_FALSE(in);
  EXPECT_EQ(in.error().code, ExitCode::usage);
  auto log =
      hdr::parse_interval_log("#[Histogram log format version 1.3]\n0.0,1.0,2.0,HISTFAAAA!!!\n", "bad.hlog");
  ASSERT_FALSE(log);
  EXPECT_THAT(log.error().message, StartsWith("bad.hlog:2: "));
}

}  // namespace
}  // namespace openloop::report
