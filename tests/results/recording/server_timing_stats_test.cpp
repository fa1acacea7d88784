// Server-Timing results: the outside-the-server difference (negatives clamped and counted), the exact merge,
// and the results file round trip (summary and intervals).
#include "results/recording/server_timing_stats.h"

#include <gtest/gtest.h>

#include "results/recording/aggregator.h"
#include "results/files/results_json.h"
#include "results/files/results_reader.h"

namespace openloop::results {
namespace {

using std::chrono::milliseconds;

TEST(ServerTimingStats, OutsideIsResponseMinusServerAndNegativesAreCountedAsZero) {
  ServerTimingStats s;
  s.record(milliseconds(3), milliseconds(10));
  s.record(milliseconds(12), milliseconds(10));  // the server claims more than the whole response took
  EXPECT_EQ(s.count(), 2);
  EXPECT_EQ(s.negative, 1U);
  EXPECT_EQ(s.outside_server.min(), 0);
  EXPECT_NEAR(static_cast<double>(s.outside_server.max()), 7e6, 7e6 * 0.01);
  EXPECT_NEAR(static_cast<double>(s.server_time.max()), 12e6, 12e6 * 0.01);
}

TEST(ServerTimingStats, MergeAddsEverythingAndClearEmpties) {
  ServerTimingStats a, b;
  a.record(milliseconds(1), milliseconds(2));
  b.record(milliseconds(5), milliseconds(4));
  b.malformed = 3;
  b.no_duration = 2;
  a.add(b);
  EXPECT_EQ(a.count(), 2);
  EXPECT_EQ(a.negative, 1U);
  EXPECT_EQ(a.malformed, 3U);
  EXPECT_EQ(a.no_duration, 2U);
  a.clear();
  EXPECT_TRUE(a.empty());
  EXPECT_TRUE(a.has_layout());
}

TEST(ServerTimingStats, SurvivesTheAggregatorAndTheResultsFile) {
  Aggregator agg(1, std::chrono::seconds(1));
  std::vector<IntervalStats> batch(2);
  batch[0].index = -1;
  batch[1].index = 0;
  batch[1].counters.intended = batch[1].counters.sent = batch[1].counters.completed = batch[1].counters.ok = 2;
  record_ns(batch[1].response_time, 10'000'000);
  record_ns(batch[1].response_time, 20'000'000);
  batch[1].server_timing.record(milliseconds(4), milliseconds(10));
  batch[1].server_timing.record(milliseconds(25), milliseconds(20));
  batch[1].server_timing.malformed = 1;
  agg.add(0, batch);
  RunResults r = agg.finish(1.0);
  ASSERT_EQ(r.intervals.size(), 1U);
  EXPECT_EQ(r.server_timing.count(), 2);
  EXPECT_EQ(r.intervals[0].server_time.count, 2);
  EXPECT_EQ(r.intervals[0].server_timing_negative, 1U);
  const nlohmann::json j = to_json(r);
  EXPECT_EQ(j["summary"]["server_timing"]["responses"], 2);
  EXPECT_EQ(j["summary"]["server_timing"]["negative_outside"], 1);
  EXPECT_EQ(j["summary"]["server_timing"]["malformed"], 1);
  EXPECT_TRUE(j["intervals"][0]["histograms"].contains("server_time"));
  const auto back = parse_results(j.dump(), "r.json");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->server_timing.count(), 2);
  EXPECT_EQ(back->server_timing.negative, 1U);
  EXPECT_EQ(back->server_timing.malformed, 1U);
  EXPECT_EQ(back->server_timing.server_time.max(), r.server_timing.server_time.max());
  EXPECT_EQ(back->intervals[0].server_timing_negative, 1U);
}

TEST(ServerTimingStats, AbsentWithoutTheHeader) {
  RunResults r;
  EXPECT_FALSE(to_json(r)["summary"].contains("server_timing"));
}

}  // namespace
}  // namespace openloop::results
