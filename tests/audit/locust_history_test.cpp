#include "audit/locust_history.h"

#include <algorithm>

#include <fmt/format.h>
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

// The header Locust writes in PREFIX_stats_history.csv.
constexpr const char* k_history_header =
    "Timestamp,User Count,Type,Name,Requests/s,Failures/s,50%,66%,75%,80%,90%,95%,98%,99%,99.9%,99.99%,100%,"
    "Total Request Count,Total Failure Count,Total Median Response Time,Total Average Response Time,"
    "Total Min Response Time,Total Max Response Time,Total Average Content Size\n";

// A Locust history of 10 users, a row a second for 12 s, 10-ms responses but 600 ms in seconds 5 and 6; each
// window's rate is what the users' cycle allows: max(pace, R) when paced, R + think otherwise.
std::string history(bool paced) {
  std::string csv(k_history_header);
  double count = 0, sum_ms = 0;
  for (int t = 0; t <= 12; ++t) {
    const double r = t == 5 || t == 6 ? 0.6 : 0.01;
    const double cycle = paced ? std::max(0.25, r) : r + 0.24;
    const double done = t == 0 ? 0 : 10 / cycle;
    count += done;
    sum_ms += done * r * 1e3;
    csv += fmt::format("{},10,,Aggregated,{},0,10,10,10,10,10,10,10,{},{},{},{},{},0,10,{},1,600,0\n",
                       1700000000 + t, done, r * 1e3, r * 1e3, r * 1e3, r * 1e3, count,
                       count > 0 ? sum_ms / count : 0);
  }
  return csv;
}

TEST(LocustHistory, ConstantThroughputIsFoundPacedWithItsShortfall) {
  testing::TempFile f(history(true));
  auto a = audit_locust_history(f.path(), "");
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(a->model.model, LoadModel::paced) << a->model.evidence;
  EXPECT_NE(a->model.evidence.find("pace 250ms"), std::string::npos) << a->model.evidence;
  // The wait fell from 240 ms to 0 as R rose by 590 ms: 0.41 of it.
  EXPECT_NE(a->model.evidence.find("fell by 0.41 of the response time's rise"), std::string::npos)
      << a->model.evidence;
  // Seconds 5 and 6 asked 40 each at the pace and sent 10/0.6 ≈ 16.7 each.
  EXPECT_NE(a->model.evidence.find("sent 33 requests of the 80 their healthy cycle asks for (58 % short)"),
            std::string::npos)
      << a->model.evidence;
  EXPECT_NE(a->honest.command.find("--rate 40/s"), std::string::npos) << a->honest.command;
}

TEST(LocustHistory, AThinkTimeIsFoundClosed) {
  testing::TempFile f(history(false));
  auto a = audit_locust_history(f.path(), "");
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(a->model.model, LoadModel::closed) << a->model.evidence;
  EXPECT_NE(a->model.evidence.find("closed with a think time of 240ms"), std::string::npos) << a->model.evidence;
}

// 20 users paced at 500 ms whose responses rise from 50 to 300 ms (under the pace) for seconds 6 to 10, as the
// e2e's lab does: the rate holds at 40/s, except in second 6, which straddles the change: the requests still in
// flight at its end leave it half the completions, so its wait N/X − R looks long (a sum over the slow stretch
// read that window as the wait rising). The median of the pairs' slopes ignores it.
std::string straddled_history() {
  std::string csv(k_history_header);
  double count = 0, sum_ms = 0;
  for (int t = 0; t <= 14; ++t) {
    const double r = t >= 7 && t <= 10 ? 0.3 : 0.05;
    const double done = t == 0 ? 0 : t == 6 ? 20 : 40;
    count += done;
    sum_ms += done * r * 1e3;
    csv += fmt::format("{},20,,Aggregated,{},0,50,50,50,50,50,50,50,300,300,300,300,{},0,50,{},1,300,0\n",
                       1700000000 + t, done, count, count > 0 ? sum_ms / count : 0);
  }
  return csv;
}

TEST(LocustHistory, AWindowThatStraddlesTheChangeDoesNotHideAPace) {
  testing::TempFile f(straddled_history());
  auto a = audit_locust_history(f.path(), "");
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(a->model.model, LoadModel::paced) << a->model.evidence;
  EXPECT_NE(a->model.evidence.find("pace 500ms"), std::string::npos) << a->model.evidence;
  EXPECT_NE(a->model.evidence.find("fell by 1.00 of the response time's rise"), std::string::npos)
      << a->model.evidence;
}

TEST(LocustHistory, AFileWithoutTheColumnsIsRefused) {
  testing::TempFile f("Timestamp,User Count,Name\n1,2,Aggregated\n");
  auto a = audit_locust_history(f.path(), "");
  ASSERT_FALSE(a);
  EXPECT_NE(a.error().message.find("lacks Requests/s"), std::string::npos) << a.error().message;
}

}  // namespace
}  // namespace openloop::audit
