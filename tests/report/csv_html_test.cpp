// CSV and HTML rendering: named columns, one row per interval; a self-contained page with its data and four
// charts.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "report/csv.h"
#include "report/html.h"
#include "report/report_test_util.h"

namespace openloop::report {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

ReportInput run_input() {
  ReportInput in;
  in.source = "r.json";
  in.results =
      test::make_run({{1'000'000, 2'000'000}, {}, {3'000'000}}, 1700000000.0, "http://x/?a=<b>", {0, 1, 0});
  return in;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::size_t begin = 0;
  for (std::size_t nl; (nl = text.find('\n', begin)) != std::string::npos; begin = nl + 1) {
    out.push_back(text.substr(begin, nl - begin));
  }
  return out;
}

TEST(Csv, OneRowPerIntervalWithNamedColumns) {
  const auto rows = lines_of(render_csv(run_input()));
  ASSERT_EQ(rows.size(), 4U);
  EXPECT_THAT(rows[0],
              ::testing::StartsWith("interval,start_unix_s,start_s,length_s,intended,sent,completed,ok,"
                                    "timeouts,errors,dropped,unfinished,offered_rps,sent_rps,"));
  EXPECT_THAT(rows[0], HasSubstr(",response_time_p99_ms,"));
  EXPECT_THAT(rows[0], HasSubstr(",send_lateness_mean_ms"));
  EXPECT_THAT(rows[1], ::testing::StartsWith("0,1700000000.000,0,1,2,2,2,2,0,0,0,0,2,2,2,2,2,1.000447,"));
  EXPECT_THAT(rows[2], ::testing::StartsWith("1,1700000001.000,1,1,1,0,0,0,0,0,1,0,"));
  EXPECT_THAT(rows[2], HasSubstr(",0,,,,,,,"));  // no samples: empty latency cells
  const auto columns = std::count(rows[0].begin(), rows[0].end(), ',');
  for (const auto& row : rows) EXPECT_EQ(std::count(row.begin(), row.end(), ','), columns) << row;
}

TEST(Html, SelfContainedWithCspAndNoExternalReferences) {
  const std::string page = render_html(run_input());
  EXPECT_THAT(page, HasSubstr("Content-Security-Policy\" content=\"default-src 'none';"));
  EXPECT_THAT(page, Not(HasSubstr("<script src")));
  EXPECT_THAT(page, Not(HasSubstr("<link")));
  EXPECT_THAT(page, HasSubstr("var uPlot="));             // the embedded IIFE build
  EXPECT_THAT(page, HasSubstr("http://x/?a=&lt;b&gt;"));  // escaped in HTML
  for (const char* id : {"chart-latency", "chart-throughput", "chart-outcomes", "chart-spectrum"}) {
    EXPECT_THAT(page, HasSubstr(std::string("id=\"") + id + "\""));
  }
  EXPECT_THAT(page, HasSubstr("coordinated omission"));
  EXPECT_THAT(page, HasSubstr("INVALID"));  // 1 dropped of 4
}

TEST(Html, EmbeddedDataParsesAndCannotCloseItsScript) {
  ReportInput in = run_input();
  in.results.verdict.reasons.push_back("</script><script>alert(1)</script>");
  const std::string page = render_html(in);
  const std::string open = "<script type=\"application/json\" id=\"openloop-data\">";
  const auto begin = page.find(open) + open.size();
  const auto end = page.find("</script>", begin);
  const auto data = nlohmann::json::parse(page.substr(begin, end - begin));
  EXPECT_EQ(data, chart_data(in));
  EXPECT_THAT(page, Not(HasSubstr("<script>alert(1)")));
}

TEST(Html, ChartDataDescribesEveryInterval) {
  const auto data = chart_data(run_input());
  EXPECT_EQ(data["t"], nlohmann::json::parse("[0.0, 1.0, 2.0]"));
  EXPECT_TRUE(data["rt"]["p99"][1].is_null());
  EXPECT_DOUBLE_EQ(data["rt"]["max"][2].get<double>(), 3.000319);
  EXPECT_EQ(data["outcomes"]["dropped"], nlohmann::json::parse("[0, 1, 0]"));
  EXPECT_EQ(data["rate"]["offered"], nlohmann::json::parse("[2.0, 1.0, 1.0]"));
  const auto& s = data["spectrum"];
  ASSERT_EQ(s["x"].size(), s["response"].size());
  EXPECT_DOUBLE_EQ(s["x"][0].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(s["response"].back().get<double>(), 3.000319);  // the max closes the spectrum
  EXPECT_DOUBLE_EQ(s["service"].back().get<double>(), 1.500159);
}

TEST(Html, HlogInputSaysCountsAreAbsentAndDrawsTwoCharts) {
  ReportInput in = run_input();
  in.has_counts = false;
  const std::string page = render_html(in);
  EXPECT_THAT(page, HasSubstr("NO VERDICT"));
  EXPECT_THAT(page, Not(HasSubstr("id=\"chart-outcomes\"")));
  EXPECT_THAT(page, HasSubstr("id=\"chart-spectrum\""));
  EXPECT_FALSE(chart_data(in).contains("outcomes"));
}

}  // namespace
}  // namespace openloop::report
