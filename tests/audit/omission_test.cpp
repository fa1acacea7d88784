#include "audit/omission.h"

#include <gtest/gtest.h>

namespace openloop::audit {
namespace {

using std::chrono::milliseconds;

TEST(OmissionCorrector, BackfillsABlockedSenderAtItsMedianInterval) {
  std::map<std::string, SenderStats> senders;
  std::vector<Record> records;
  Nanos t{0};
  for (int i = 0; i < 100; ++i) {
    const Nanos d = i == 50 ? milliseconds(1000) : milliseconds(10);
    records.push_back(Record{t, d, "a", true, ""});
    t += d;
  }
  for (const auto& r : records) senders["a"].add(r, Nanos(100'000));
  hdr::Histogram uncorrected = response_histogram();
  for (const auto& r : records) uncorrected.record(r.duration.count());
  OmissionCorrector c(senders, LoadModel::closed, Nanos(0), "");
  for (const auto& r : records) c.add(r);
  const OmissionFinding f = c.finish(uncorrected);
  ASSERT_TRUE(f.applicable);
  EXPECT_NEAR(to_millis(f.expected_interval), 10, 0.1);
  EXPECT_EQ(f.blocked, 1);
  EXPECT_EQ(f.missing, 99);  // HdrHistogram: 990, 980, ..., 10 ms
  EXPECT_EQ(f.corrected.count, 100 + f.missing);
  EXPECT_EQ(f.uncorrected.count, 100);
  EXPECT_GT(f.corrected.p90, milliseconds(500));
  EXPECT_LT(f.uncorrected.p90, milliseconds(11));
}

TEST(OmissionCorrector, OpenModelIsNotCorrected) {
  OmissionCorrector c({}, LoadModel::open, milliseconds(10), "");
  c.add(Record{Nanos(0), milliseconds(1000), "", true, ""});
  hdr::Histogram h = response_histogram();
  h.record(milliseconds(1000).count());
  const OmissionFinding f = c.finish(h);
  EXPECT_FALSE(f.applicable);
  EXPECT_EQ(f.missing, 0);
  EXPECT_NE(f.why.find("open model"), std::string::npos);
}

TEST(OmissionCorrector, PooledIntervalServesFilesWithoutSenders) {
  OmissionCorrector c({}, LoadModel::closed, milliseconds(10), "pooled: the median response time");
  c.add(Record{Nanos(0), milliseconds(100), "", true, ""});
  hdr::Histogram h = response_histogram();
  const OmissionFinding f = c.finish(h);
  EXPECT_TRUE(f.applicable);
  EXPECT_EQ(f.missing, 9);
  EXPECT_EQ(f.corrected.count, 1 + 9);  // 100 ms at 10 ms: 90, 80, ..., 10 ms backfilled
  EXPECT_EQ(f.why, "pooled: the median response time");
}

}  // namespace
}  // namespace openloop::audit
