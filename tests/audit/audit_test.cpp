#include "audit/audit.h"

#include <algorithm>
#include <random>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "synthetic_jtl.h"
#include "test_files.h"

namespace openloop::audit {
namespace {

using testing::TempFile;

Result<AuditResult> audit_text(const std::string& content) {
  TempFile f(content);
  return audit_file(f.path(), AuditSettings{});
}

TEST(Audit, ClosedLoopStalledFindsModelLittlesLawFeedbackAndOmission) {
  // 4 threads, 10 ms each, 10 s; the server stalls from 4 s to 5 s.
  auto a = audit_text(testing::closed_jtl(4, 10, 10'000, 4'000, 5'000));
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(a->tool, "JMeter");
  EXPECT_EQ(a->model.model, LoadModel::closed) << a->model.evidence;
  EXPECT_GT(a->model.back_to_back_share, 0.99);
  EXPECT_EQ(a->model.senders, 4);
  EXPECT_NEAR(a->little.n, 4.0, 0.1);
  EXPECT_EQ(a->little.z_mean, Nanos(0));
  EXPECT_TRUE(a->feedback.seen) << a->feedback.sentence;
  EXPECT_NE(a->feedback.sentence.find("arrivals fell"), std::string::npos);
  ASSERT_TRUE(a->omission.applicable);
  EXPECT_NEAR(to_millis(a->omission.expected_interval), 10, 0.1);
  EXPECT_EQ(a->omission.blocked, 4);
  // Each stalled request held its thread for about 100 intervals of 10 ms.
  EXPECT_GT(a->omission.missing, 4 * 90);
  EXPECT_LE(a->omission.uncorrected.p99, std::chrono::milliseconds(11));
  EXPECT_GT(a->omission.corrected.p99, std::chrono::milliseconds(500));
  EXPECT_NE(a->honest.command.find("--rate 400/s"), std::string::npos) << a->honest.command;
  EXPECT_NE(a->verdict.find("closed loop of about 4 senders"), std::string::npos) << a->verdict;
}

TEST(Audit, UnstalledClosedLoopShowsNoFeedbackAndNoCorrection) {
  auto a = audit_text(testing::closed_jtl(4, 10, 5'000, 99'000, 99'001));
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_FALSE(a->feedback.seen) << a->feedback.sentence;
  EXPECT_EQ(a->omission.blocked, 0);
  EXPECT_EQ(a->omission.corrected.p99, a->omission.uncorrected.p99);
}

TEST(Audit, PacedSendersAreTold) {
  auto a = audit_text(testing::paced_jtl(200, 100));
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(a->model.model, LoadModel::paced) << a->model.evidence;
  EXPECT_NEAR(a->model.think_response_slope, -1.0, 0.01);
  EXPECT_NEAR(to_millis(a->omission.expected_interval), 100, 1);
}

TEST(Audit, OverlappingSendsAreOpenAndNotCorrected) {
  auto a = audit_text(testing::open_jtl(200));
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(a->model.model, LoadModel::open) << a->model.evidence;
  EXPECT_FALSE(a->omission.applicable);
  EXPECT_NE(a->verdict.find("open model"), std::string::npos);
}

TEST(Audit, AbFilesUseThePooledIntervalAndSayTheLimit) {
  auto a = audit_file(testing::fixture("ab.tsv"), AuditSettings{});
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(a->model.model, LoadModel::closed);
  EXPECT_NE(a->model.evidence.find("not measured"), std::string::npos);
  EXPECT_EQ(a->bad.count, 1);
  ASSERT_FALSE(a->limits.empty());
  EXPECT_NE(a->limits[0].find("to the second"), std::string::npos);
  EXPECT_NE(a->omission.why.find("median response time"), std::string::npos);
}

TEST(Audit, AFileOfOnlyBadLinesNamesTheFirst) {
  auto a = audit_text(std::string(testing::k_jtl_header) + "x,y,GET /,200,T 1-1,true\n");
  ASSERT_FALSE(a);
  EXPECT_NE(a.error().message.find(":2:"), std::string::npos) << a.error().message;
  EXPECT_EQ(a.error().code, ExitCode::usage);
}

TEST(Audit, AHeaderOnlyFileSaysSo) {
  auto a = audit_text(testing::k_jtl_header);
  ASSERT_FALSE(a);
  EXPECT_NE(a.error().message.find("no request"), std::string::npos) << a.error().message;
}

}  // namespace
}  // namespace openloop::audit

namespace openloop::audit {
namespace {

TEST(Audit, VegetaIsOpenByConstructionAndNotCorrected) {
  std::string lines;
  for (int i = 0; i < 50; ++i) {
    lines += fmt::format("{},200,{},0,2,,,,{},GET,http://127.0.0.1:8080/,\n",
                         1577836800000000000LL + i * 10'000'000LL, i == 20 ? 900'000'000 : 2'000'000, i);
  }
  testing::TempFile f(lines);
  auto a = audit_file(f.path(), AuditSettings{});
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(a->tool, "Vegeta");
  EXPECT_EQ(a->model.model, LoadModel::open) << a->model.evidence;
  EXPECT_FALSE(a->omission.applicable);
  EXPECT_NE(a->honest.command.find("--rate"), std::string::npos);
  // Its own lateness against the 100/s its numbers imply: every send on time.
  ASSERT_TRUE(a->lateness.applicable) << a->lateness.why;
  EXPECT_NEAR(a->lateness.rate, 100.0, 0.01);
  EXPECT_EQ(a->lateness.lateness.count, 50);
  EXPECT_LT(a->lateness.lateness.max, std::chrono::microseconds(1));
  EXPECT_NE(a->verdict.find("stands as measured from each send"), std::string::npos) << a->verdict;
}

TEST(Audit, VegetaHeldBackSendsAreLate) {
  std::string lines;
  // 100/s for 2 s; sends 100-129 (due 1.0-1.29 s) left together at 1.3 s, behind a stalled worker pool.
  for (int i = 0; i < 200; ++i) {
    const long long due = 1577836800000000000LL + i * 10'000'000LL;
    const long long sent = i >= 100 && i < 130 ? 1577836801300000000LL : due;
    lines += fmt::format("{},200,2000000,0,2,,,,{},GET,http://127.0.0.1:8080/,\n", sent, i);
  }
  testing::TempFile f(lines);
  auto a = audit_file(f.path(), AuditSettings{});
  ASSERT_TRUE(a) << a.error().message;
  ASSERT_TRUE(a->lateness.applicable) << a->lateness.why;
  EXPECT_NEAR(a->lateness.rate, 100.0, 0.01);
  EXPECT_NEAR(static_cast<double>(a->lateness.lateness.max.count()), 300e6, 0.5e6);  // 3 digits
  EXPECT_EQ(a->lateness.late_over_interval, 29);  // sends 100-128; send 129's 10 ms is one interval
  EXPECT_NE(a->verdict.find("Vegeta itself sent p99"), std::string::npos) << a->verdict;
}

}  // namespace
}  // namespace openloop::audit

namespace openloop::audit {
namespace {

// The same closed loop stalled for 1 s, written in each format that names its senders: each audit finds what
// the JMeter CSV's does (ClosedLoopStalledFindsModelLittlesLawFeedbackAndOmission above).
void expect_closed_stall_found(const std::string& content, const std::string& tool) {
  SCOPED_TRACE(tool);
  auto a = audit_text(content);
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(a->tool, tool);
  EXPECT_EQ(a->bad.count, 0) << a->bad.first;
  EXPECT_EQ(a->model.model, LoadModel::closed) << a->model.evidence;
  EXPECT_EQ(a->model.senders, 4);
  EXPECT_NEAR(a->little.n, 4.0, 0.1);
  EXPECT_TRUE(a->feedback.seen) << a->feedback.sentence;
  ASSERT_TRUE(a->omission.applicable) << a->omission.why;
  EXPECT_NEAR(to_millis(a->omission.expected_interval), 10, 0.1);
  EXPECT_EQ(a->omission.blocked, 4);
  EXPECT_LE(a->omission.uncorrected.p99, std::chrono::milliseconds(11));
  EXPECT_GT(a->omission.corrected.p99, std::chrono::milliseconds(500));
  EXPECT_NE(a->honest.command.find("--rate 400/s"), std::string::npos) << a->honest.command;
}

TEST(Audit, ClosedStallIsFoundInJmeterXmlGatlingWithUserIdsAndK6Csv) {
  const auto samples = testing::closed_samples(4, 10, 10'000, 4'000, 5'000);
  expect_closed_stall_found(testing::as_jmeter_xml(samples), "JMeter");
  expect_closed_stall_found(testing::as_gatling_log(samples, true), "Gatling");
  expect_closed_stall_found(testing::as_k6_csv(samples), "k6");
}

// hey -c 10 -q 50 as its CSV has it: 10 workers on one 20-ms tick from 0 (Go's ticker drops the ticks a busy
// worker misses), 3 ms responses, the server frozen from 3 s to 3.5 s, 8 s; no worker named.
std::string paced_hey_csv() {
  std::string csv = "response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset\n";
  struct Send { long long at_us, took_us; };
  std::vector<Send> sends;
  for (int w = 0; w < 10; ++w) {
    long long free_at = 0;
    for (long long tick = w * 7; tick < 8'000'000; tick += 20'000) {  // microseconds; a few µs between workers
      if (tick < free_at) continue;  // a dropped tick
      const long long end = tick >= 3'000'000 && tick < 3'500'000 ? 3'500'000 + 3'000 : tick + 3'000;
      sends.push_back({tick, end - tick});
      free_at = end;
    }
  }
  std::sort(sends.begin(), sends.end(), [](const Send& a, const Send& b) { return a.at_us < b.at_us; });
  for (const Send& s : sends) {
    const double took = static_cast<double>(s.took_us) / 1e6, at = static_cast<double>(s.at_us) / 1e6;
    csv += fmt::format("{:.4f},0.0000,0.0000,0.0001,{:.4f},0.0000,200,{:.4f}\n", took, took, at);
  }
  return csv;
}

TEST(Audit, HeyPacedByQFindsThePaceAndCorrectsWithIt) {
  auto a = audit_text(paced_hey_csv());
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(a->tool, "hey");
  EXPECT_EQ(a->model.model, LoadModel::paced) << a->model.evidence;
  ASSERT_TRUE(a->omission.applicable) << a->omission.why;
  EXPECT_NEAR(to_millis(a->omission.expected_interval), 20, 0.3);
  EXPECT_EQ(a->omission.blocked, 10);
  // Each worker held about 500 ms: about 24 ticks it could not send.
  EXPECT_NEAR(static_cast<double>(a->omission.missing), 10 * 24, 20);
  // As recorded, 10 slow samples in ~4000 leave p99 at 3 ms; corrected, about 250 of ~4250 sit in the freeze.
  EXPECT_LE(a->omission.uncorrected.p99, std::chrono::milliseconds(4));
  EXPECT_GT(a->omission.corrected.p99, std::chrono::milliseconds(350));
  EXPECT_NEAR(a->little.n, 10, 1.5);
  EXPECT_NE(a->verdict.find("paced loop"), std::string::npos) << a->verdict;
}

TEST(Audit, HeyUnpacedAndUnchainableClaimsNoPace) {
  // Sends at random moments, as a response ended only by chance: no pace is claimed.
  std::string csv = "response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset\n";
  std::mt19937_64 rng(3);
  std::exponential_distribution<double> gap(400.0);
  double t = 0;
  for (int i = 0; i < 3000; ++i) csv += fmt::format("0.0030,0,0,0,0.0030,0,200,{:.4f}\n", t += gap(rng));
  auto a = audit_text(csv);
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(a->model.model, LoadModel::unknown) << a->model.evidence;
}

TEST(Audit, GatlingWithoutUserIdsShowsFeedbackButCorrectsNothing) {
  auto a = audit_text(testing::as_gatling_log(testing::closed_samples(4, 10, 10'000, 4'000, 5'000), false));
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_GT(a->records, 3500);
  EXPECT_EQ(a->model.model, LoadModel::unknown) << a->model.evidence;
  EXPECT_TRUE(a->feedback.seen) << a->feedback.sentence;
  EXPECT_FALSE(a->omission.applicable);
  bool said = false;
  for (const auto& l : a->limits) said = said || l.find("no user id") != std::string::npos;
  EXPECT_TRUE(said);
}

}  // namespace
}  // namespace openloop::audit
