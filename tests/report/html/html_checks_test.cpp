// The HTML report's self-checks panel: present with its tables when a run was checked, absent otherwise.
#include "report/html/html_checks.h"

#include <gtest/gtest.h>

using namespace openloop;
using namespace openloop::report;

TEST(HtmlChecks, ShowsEveryCheckWithItsCriticalValueAndNothingForAnUncheckedRun) {
  ReportInput in;
  EXPECT_EQ(html::checks_section(in), "");
  auto& c = in.results.checks;
  c.arrivals.tested = true;
  c.arrivals.process = "poisson";
  c.arrivals.level = "1 %";
  results::LaneArrivals lane;
  lane.test = "anderson-darling";
  lane.tested = 2000;
  lane.statistic = 41.2;
  lane.critical = 3.857;
  lane.passed = false;
  lane.bunched = 0.38;
  lane.planned_bunched = 0.04;
  lane.bunch_below_ns = 10'000;
  c.arrivals.lanes = {lane};
  c.independence.tested = true;
  c.independence.samples = 100000;
  c.independence.vanish_lag = 37;
  c.independence.effective_fraction = 0.02711;
  c.response_time.push_back({99, 1'000'000, 980'000, 1'021'000, 990'000, 1'010'000, 2711});
  const std::string s = html::checks_section(in);
  EXPECT_NE(s.find("Self-checks"), std::string::npos);
  EXPECT_NE(s.find("id=\"arrival-checks\""), std::string::npos);
  EXPECT_NE(s.find("<td>41.2</td><td>3.86 at 1 %</td>"), std::string::npos) << s;
  EXPECT_NE(s.find("sends bunched: 38 % of gaps under 10µs where the plan has 4 %"), std::string::npos) << s;
  EXPECT_NE(s.find("correlated up to lag 37"), std::string::npos) << s;
  EXPECT_NE(s.find("<td>p99</td><td>1ms</td><td>980µs – 1.02ms</td><td>2.1</td>"), std::string::npos) << s;
}

// The page and the terminal's checks line give the same effective sample size: 1,000 × 0.2656 is 265.6, which
// both round to 266 (the page once truncated it to 265).
TEST(HtmlChecks, EffectiveSampleSizeAsTheTerminalRoundsIt) {
  ReportInput in;
  auto& c = in.results.checks;
  c.independence.tested = true;
  c.independence.samples = 1000;
  c.independence.vanish_lag = 5;
  c.independence.effective_fraction = 0.2656;
  const std::string page = html::checks_section(in);
  const std::string line = results::checks_line(c);
  EXPECT_NE(line.find("effective n 266 of 1,000"), std::string::npos) << line;
  EXPECT_NE(page.find("1000 samples are worth about 266 independent ones"), std::string::npos) << page;
}
