// The ramp's step table: completed and goodput on the same basis (the step's own requests), so no row reads
// as more successes than responses; the responses that arrived during the step in a column of their own.
#include "procedures/ramp/ramp_report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ramp_test_util.h"

using namespace openloop;
using namespace openloop::procedures;
using ::testing::HasSubstr;

namespace {
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::size_t begin = 0;
  for (std::size_t nl; (nl = text.find('\n', begin)) != std::string::npos; begin = nl + 1) {
    out.push_back(text.substr(begin, nl - begin));
  }
  return out;
}
}  // namespace

TEST(RampTable, CompletedAndGoodputCountTheSameRequests) {
  // 1200/s against a 1000/s lab: of the step's own requests 1200/s got an answer (a 5 s timeout) and 1200/s
  // within the deadline, but while the step lasted only 959 responses arrived per second.
  RampOutcome o;
  o.steps.push_back(ramp_test::step(1200, 1200, 40));
  o.steps.back().number = 1;
  o.steps.back().analysis.completed_of_arrivals_rps = 1200;
  o.steps.back().analysis.completed_rps = 959;
  const auto lines = lines_of(ramp_table(o));
  ASSERT_EQ(lines.size(), 3U);
  EXPECT_THAT(lines[0],
              HasSubstr("completed and goodput: the step's own requests that got a response / "
                        "succeeded within the deadline; resp/s: responses that arrived during the step"));
  EXPECT_THAT(lines[1], HasSubstr("completed   goodput    resp/s"));
  EXPECT_THAT(lines[2], HasSubstr("     1200      1200       959"));
  EXPECT_THAT(step_line(o.steps.back()),
              HasSubstr("completed 1200/s  goodput 1200/s (of its requests)  resp/s 959"));
}
