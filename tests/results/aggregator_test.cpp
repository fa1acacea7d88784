#include "results/aggregator.h"

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
  auto decoded = hdr::from_compressed_base64(r.intervals[2].response_time_hist);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->total_count(), 3000);
}
