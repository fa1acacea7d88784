#include "results/recording/aggregator.h"

#include <gtest/gtest.h>

#include "core/rng.h"
#include "hdr/codec.h"

using namespace openloop;
using namespace openloop::results;
using namespace std::chrono_literals;

namespace {
IntervalStats interval(std::int64_t index, std::uint64_t intended) {
  IntervalStats s;
  s.index = index;
  s.counters.intended = intended;
  s.counters.completed = intended;
  return s;
}
}  // namespace

TEST(Aggregator, FinalizesAnIntervalOnlyWhenEveryWorkerDeliveredIt) {
  Aggregator agg(2, 1s);
  std::vector<IntervalStats> a{interval(-1, 0), interval(0, 5), interval(1, 5)};
  agg.add(0, a);
  EXPECT_EQ(agg.finalized(), 0u);
  std::vector<IntervalStats> b{interval(-1, 0), interval(0, 3)};
  agg.add(1, b);
  ASSERT_EQ(agg.finalized(), 1u);
  EXPECT_EQ(agg.results().intervals[0].counters.intended, 8u);
  EXPECT_EQ(agg.results().totals.intended, 8u);
}

TEST(Aggregator, MergedPercentilesEqualThoseOfOneHistogramFedEverySample) {
  Aggregator agg(3, 1s);
  hdr::Histogram all = make_latency_histogram();
  Rng rng(11);
  for (unsigned w = 0; w < 3; ++w) {
    std::vector<IntervalStats> v{interval(-1, 0)};
    for (std::int64_t i = 0; i < 4; ++i) {
      IntervalStats s = interval(i, 100);
      for (int k = 0; k < 1000; ++k) {
        const auto ns = static_cast<std::int64_t>(1e5 * std::exp(2.0 * rng.uniform01()) * (1 + w));
        record_ns(s.response_time, ns);
        record_ns(all, ns);
      }
      v.push_back(std::move(s));
    }
    agg.add(w, v);
  }
  RunResults r = agg.finish(4.0);
  ASSERT_EQ(r.intervals.size(), 4u);
  for (double p : {50.0, 90.0, 99.0, 99.9, 100.0}) {
    EXPECT_EQ(r.response_time.value_at_percentile(p), all.value_at_percentile(p)) << p;
  }
  EXPECT_EQ(r.totals.intended, 1200u);
  // Interval histograms are stored as compressed V2 and decode back to the same counts.
  auto decoded = hdr::from_compressed_base64(r.intervals[2].response_time_hist.text());
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->total_count(), 3000);
}

TEST(Aggregator, HandsBackWhatItNoLongerNeedsWithTheResultsUnchanged) {
  Aggregator agg(2, 1s);
  std::vector<IntervalStats> spent;
  std::vector<IntervalStats> a{interval(-1, 0), interval(0, 5)};
  a[1].response_time.record(1000);
  agg.add(0, a, &spent);
  EXPECT_TRUE(spent.empty());  // waiting for worker 1: kept
  std::vector<IntervalStats> b{interval(-1, 0), interval(0, 3)};
  b[1].response_time.record(3000);
  agg.add(1, b, &spent);
  // Worker 1's two intervals were merged into worker 0's; both merged intervals were finalized.
  ASSERT_EQ(spent.size(), 4u);
  for (const auto& s : spent) EXPECT_TRUE(s.has_layout(make_latency_histogram().counts_length(), 0));
  ASSERT_EQ(agg.finalized(), 1u);
  EXPECT_EQ(agg.results().intervals[0].counters.intended, 8u);
  EXPECT_EQ(agg.results().response_time.total_count(), 2);
  EXPECT_EQ(agg.results().response_time.raw_max(), 3000);
}

TEST(IntervalStats, ClearEmptiesEverythingAndKeepsTheLayout) {
  IntervalStats s = interval(7, 4);
  s.by_request.resize(2);
  s.response_time.record(5);
  s.send_lateness.record(9);
  s.by_request[1].service_time.record(2);
  s.by_request[1].counters.ok = 3;
  s.flows.iterations = 2;
  const std::int32_t length = s.response_time.counts_length();
  s.clear();
  EXPECT_EQ(s.index, 0);
  EXPECT_EQ(s.counters.intended, 0u);
  EXPECT_EQ(s.response_time.total_count(), 0);
  EXPECT_EQ(s.send_lateness.total_count(), 0);
  EXPECT_EQ(s.by_request[1].service_time.total_count(), 0);
  EXPECT_EQ(s.by_request[1].counters.ok, 0u);
  EXPECT_EQ(s.flows.iterations, 0u);
  EXPECT_TRUE(s.has_layout(length, 2));
  EXPECT_FALSE(s.has_layout(length, 0));  // a different breakdown
  EXPECT_EQ(s.response_time.value_at_percentile(100), 0);
}

TEST(Aggregator, ParksAllButTheLatestIntervalsAndReadsThemBackUnchanged) {
  // Two runs of the same 150 intervals: one keeps every interval in memory, one keeps only the latest 5.
  Aggregator all_resident(1, 1s, 1000), bounded(1, 1s, 5);
  Rng rng(3);
  std::size_t peak_resident = 0;
  for (std::int64_t i = -1; i < 150; ++i) {
    IntervalStats s = interval(i, 50);
    for (int k = 0; k < 50; ++k)
      record_ns(s.response_time, static_cast<std::int64_t>(1e5 + 1e6 * rng.uniform01()));
    IntervalStats copy = s;
    std::vector<IntervalStats> a{std::move(s)}, b{std::move(copy)};
    all_resident.add(0, a);
    bounded.add(0, b);
    EXPECT_LE(bounded.results().intervals.size() - bounded.results().intervals.parked(), 5u);
    peak_resident = std::max(peak_resident, bounded.results().intervals.resident_bytes());
  }
  // The last interval is cut short by the measured period: its parked or resident copy is replaced.
  const RunResults kept = all_resident.finish(149.5), parked = bounded.finish(149.5);
  ASSERT_EQ(parked.intervals.size(), 150u);
  EXPECT_EQ(kept.intervals.spill(), nullptr);
  ASSERT_NE(parked.intervals.spill(), nullptr);
  EXPECT_EQ(parked.intervals.parked(), 145u);
  // Memory: the latest 5 intervals and 16 bytes of index for the others; all 150 held are many times that.
  EXPECT_LT(peak_resident * 10, kept.intervals.resident_bytes());
  EXPECT_DOUBLE_EQ(parked.intervals.total_length_s(), 149.5);
  EXPECT_DOUBLE_EQ(parked.intervals.back().length_s, 0.5);
  for (std::size_t i = 0; i < 150; ++i) {
    EXPECT_EQ(encode_interval(parked.intervals[i]), encode_interval(kept.intervals[i])) << i;
    EXPECT_EQ(parked.intervals[i].response_time_hist.text(), kept.intervals[i].response_time_hist.text())
        << i;
  }
  EXPECT_EQ(parked.intervals.spill()->failed(), "");
}

TEST(EncodedHistogram, ACopyOfAParkedTextReadsTheSameAndReassigningUnparks) {
  auto file = SpillFile::open();
  ASSERT_TRUE(file) << file.error().message;
  EncodedHistogram h(std::string("HISTFAAAAB"));
  ASSERT_TRUE(h.park(*file));
  EXPECT_TRUE(h.parked());
  EXPECT_EQ(h.resident_bytes(), 0u);
  const EncodedHistogram copy = h;
  EXPECT_EQ(copy.text(), "HISTFAAAAB");
  h = std::string("other");
  EXPECT_FALSE(h.parked());
  EXPECT_EQ(h.text(), "other");
  EXPECT_EQ(copy.text(), "HISTFAAAAB");
  EncodedHistogram none;
  ASSERT_TRUE(none.park(*file));
  EXPECT_TRUE(none.empty());
  EXPECT_FALSE(none.parked());
}

TEST(SpillFile, ANonexistentDirectoryIsNamedWithWhatToDo) {
  auto file = SpillFile::open("/nonexistent/openloop-test");
  ASSERT_FALSE(file);
  EXPECT_NE(file.error().message.find("/nonexistent/openloop-test"), std::string::npos);
  EXPECT_NE(file.error().message.find("TMPDIR"), std::string::npos);
}
