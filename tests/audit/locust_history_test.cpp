#include "audit/locust_history.h"

#include <gtest/gtest.h>

#include "test_files.h"

namespace openloop::audit {
namespace {

TEST(LocustHistory, LittlesLawAndFeedbackFromTheAggregatedRows) {
  auto a = audit_locust_history(testing::fixture("locust_stats_history.csv"), "");
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(a->tool, "Locust");
  EXPECT_EQ(a->bad.count, 1);
  EXPECT_NE(a->bad.first.find("locust_stats_history.csv:5:"), std::string::npos) << a->bad.first;
  EXPECT_EQ(a->model.model, LoadModel::closed);
  EXPECT_DOUBLE_EQ(a->little.n, 10);
  EXPECT_EQ(a->records, 880);
  // X = 880 requests / 9 s; R = 60 ms (the last cumulative mean); Z = N/X − R.
  EXPECT_NEAR(a->little.x_per_s, 880.0 / 9, 1e-9);
  EXPECT_NEAR(to_millis(a->little.z_mean), 10 / (880.0 / 9) * 1e3 - 60, 0.01);
  EXPECT_TRUE(a->feedback.seen) << a->feedback.sentence;
  EXPECT_NE(a->feedback.sentence.find("arrivals fell 60 %"), std::string::npos) << a->feedback.sentence;
  EXPECT_FALSE(a->omission.applicable);
  EXPECT_NE(a->omission.why.find("aggregates"), std::string::npos);
  EXPECT_NE(a->honest.command.find("--rate 100/s"), std::string::npos) << a->honest.command;
}

TEST(LocustHistory, AFileWithoutTheColumnsIsRefused) {
  testing::TempFile f("Timestamp,User Count,Name\n1,2,Aggregated\n");
  auto a = audit_locust_history(f.path(), "");
  ASSERT_FALSE(a);
  EXPECT_NE(a.error().message.find("lacks Requests/s"), std::string::npos) << a.error().message;
}

}  // namespace
}  // namespace openloop::audit
