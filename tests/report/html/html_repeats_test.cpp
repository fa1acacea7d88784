// The HTML report's repeats panel writes durations as the terminal's repeats block does (format_duration).
#include "report/html/html_repeats.h"

#include <gtest/gtest.h>

using namespace openloop;
using namespace openloop::report;

TEST(HtmlRepeats, DurationsAsTheTerminalWritesThem) {
  ReportInput in;
  EXPECT_EQ(html::repeats_section(in), "");
  in.document = nlohmann::json::parse(R"({
    "repeats": [{"repeat": 1, "seed": 7, "response_time_intervals":
                 {"p99": {"value_ms": 0.151, "low_ms": 0.14, "high_ms": 2.5}}}],
    "repeat_summary": {"completed": 1, "planned": 1, "cooldown_s": 0,
                       "response_time": {"p99": {"median_ms": 0.151, "min_ms": 0.14, "max_ms": 1250,
                                                 "median_interval": {"low_ms": 0.14, "high_ms": 2.5}}}}})");
  const std::string page = html::repeats_section(in);
  EXPECT_NE(page.find("151µs [140µs – 2.5ms]"), std::string::npos) << page;
  EXPECT_NE(page.find("<td>151µs</td><td>140µs – 1.25s</td>"), std::string::npos) << page;
  EXPECT_EQ(page.find(" ms"), std::string::npos) << page;
}
