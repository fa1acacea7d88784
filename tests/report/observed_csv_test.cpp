// The .hlog's observed companion: one row per interval, on exactly the .hlog's time axis.
#include "report/observed_csv.h"

#include <cmath>
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "hdr/interval_log.h"
#include "report/hlog_export.h"
#include "results/results_test_util.h"

namespace openloop::report {
namespace {

using ::testing::HasSubstr;

std::vector<std::string> csv_lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

results::RunResults observed_run() {
  // A start that is not on a whole millisecond, as a real run's is.
  auto r = test::make_run({{1000}, {2000}, {3000}}, 1700000000.1234567);
  r.observed.sources = {"pid:7", "prometheus:http://127.0.0.1:9/m"};
  r.observed.signals = {{"pid:7", "cpu_of_allowed", "share", results::SignalRole::utilization, "CPU"},
                        {"prometheus:http://127.0.0.1:9/m", "x{quantile=\"0.5\",a=\"b\"}", "", {}, "x"}};
  for (std::size_t k = 0; k < r.intervals.size(); ++k)
    r.intervals.resident(k).observed = {0.25 * static_cast<double>(k + 1), k == 1 ? NAN : 7.0};
  return r;
}

TEST(ObservedCsv, OneRowPerIntervalWithTheHlogsTimestamps) {
  const auto r = observed_run();
  const auto hlog = render_interval_log(r);
  ASSERT_TRUE(hlog) << hlog.error().message;
  const auto log = hdr::parse_interval_log(*hlog, "run.hlog");
  ASSERT_TRUE(log) << log.error().message;
  const auto lines = csv_lines(render_observed_csv(r));
  ASSERT_EQ(lines.size(), 2 + r.intervals.size());
  EXPECT_EQ(lines[0],
            "#[StartTime: 1700000000.123 (seconds since epoch), as the .hlog's; start and length as "
            "its intervals']");
  ASSERT_TRUE(log->start_time_seconds);
  EXPECT_DOUBLE_EQ(*log->start_time_seconds, 1700000000.123);
  EXPECT_EQ(lines[1],
            "start,length,pid:7/cpu_of_allowed,\"prometheus:http://127.0.0.1:9/m/"
            "x{quantile=\"\"0.5\"\",a=\"\"b\"\"}\"");
  // The k-th interval of the .hlog (three tags each) is the k-th row: the same start and length, as written.
  ASSERT_EQ(log->intervals.size(), 3 * r.intervals.size());
  for (std::size_t j = 0; j < log->intervals.size(); ++j) {
    const auto& e = log->intervals[j];
    EXPECT_THAT(lines[2 + j / 3],
                ::testing::StartsWith(fmt::format("{:.3f},{:.3f},", e.start.count(), e.length.count())));
  }
  EXPECT_EQ(lines[2], "0.000,1.000,0.25,7");
  EXPECT_EQ(lines[3], "1.000,1.000,0.5,") << "no value: an empty field";
  EXPECT_EQ(lines[4], "2.000,1.000,0.75,7");
}

TEST(ObservedCsv, TheCompanionSitsBesideTheHlog) {
  EXPECT_EQ(observed_companion_path("out/run.hlog"), "out/run.observed.csv");
  EXPECT_EQ(observed_companion_path("run.log"), "run.log.observed.csv");
  EXPECT_EQ(observed_companion_path(".hlog"), ".hlog.observed.csv");
  EXPECT_EQ(observed_companion_path("-"), "");
  EXPECT_EQ(observed_companion_path(""), "");
}

TEST(ObservedCsv, ARunWithoutObservationsHasOnlyTheTimeColumns) {
  const auto lines = csv_lines(render_observed_csv(test::make_run({{1000}}, 1700000000.0)));
  ASSERT_EQ(lines.size(), 3U);
  EXPECT_EQ(lines[1], "start,length");
  EXPECT_EQ(lines[2], "0.000,1.000");
}

}  // namespace
}  // namespace openloop::report
