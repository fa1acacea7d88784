#include "report/summary_legend.h"

#include <string>

#include <gtest/gtest.h>

namespace openloop::report {
namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(SummaryLegend, AnOpenRunSaysWhereEachLatencyStartsAndWhatValidMeans) {
  results::RunResults r;
  r.info.model = results::Model::open;
  r.verdict.valid = true;
  const std::string legend = render_legend(r);
  EXPECT_TRUE(has(legend, "response time   from each request's intended send time")) << legend;
  EXPECT_TRUE(has(legend, "service time    from when the request was sent")) << legend;
  EXPECT_TRUE(has(legend, "send lateness   how late the generator sent")) << legend;
  EXPECT_TRUE(has(legend, "goodput         successes per second")) << legend;
  EXPECT_TRUE(has(legend, "VALID           the generator applied the planned load")) << legend;
  EXPECT_FALSE(has(legend, "INVALID")) << legend;
  EXPECT_FALSE(has(legend, "checks")) << "no checks line in the summary, none in the legend: " << legend;
  EXPECT_EQ(legend.front(), '\n');
  // Wrapped for a terminal: no line past 110 columns, continuations under the text's first word.
  std::size_t start = 0;
  for (std::size_t end = legend.find('\n'); end != std::string::npos; end = legend.find('\n', start)) {
    const std::string row = legend.substr(start, end - start);
    EXPECT_LE(row.size(), 112U) << row;  // 110 columns; "✗" is 3 bytes in one column
    if (row.size() > 2 && row[2] == ' ') {
      EXPECT_EQ(row.find_first_not_of(' '), 18U) << row;
    }
    start = end + 1;
  }
  EXPECT_EQ(legend.back(), '\n');
}

TEST(SummaryLegend, AClosedRunSaysItsResponseTimeIsServiceTime) {
  results::RunResults r;
  r.info.model = results::Model::closed;
  const std::string legend = render_legend(r);
  EXPECT_TRUE(has(legend, "response (=svc) from sending a request")) << legend;
  EXPECT_TRUE(has(legend, "coordinated omission")) << legend;
  EXPECT_FALSE(has(legend, "intended send time (the schedule)")) << legend;
}

TEST(SummaryLegend, AnInvalidRunSaysToFixTheRigNotTheTarget) {
  results::RunResults r;
  r.verdict.valid = false;
  const std::string legend = render_legend(r);
  EXPECT_TRUE(has(legend, "INVALID         the generator did not apply the planned load")) << legend;
  EXPECT_TRUE(has(legend, "fix the rig")) << legend;
}

TEST(SummaryLegend, ChecksAreExplainedWhenTheSummaryHasThem) {
  results::RunResults r;
  r.checks.independence.tested = true;
  r.checks.independence.samples = 1000;
  r.checks.independence.effective_fraction = 1.0;
  const std::string legend = render_legend(r);
  EXPECT_TRUE(has(legend, "checks          the run testing its own numbers")) << legend;
  EXPECT_TRUE(has(legend, "effective n")) << legend;
}

}  // namespace
}  // namespace openloop::report
