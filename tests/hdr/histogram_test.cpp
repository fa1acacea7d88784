// Histogram layout, recording, percentiles, statistics, merge and growth against the reference's vectors.
#include "hdr/histogram.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/rng.h"

namespace openloop::hdr {
namespace {

constexpr std::int64_t k_hour_ns = 3600000000000;

TEST(HistogramLayout, SubBucketCountsFollowSignificantDigits) {
  const std::int32_t expected[] = {0, 32, 256, 2048, 32768, 262144};  // 2^5, 2^8, 2^11, 2^15, 2^18
  for (int digits = 1; digits <= 5; ++digits) {
    EXPECT_EQ(Histogram(1, 1000, digits).sub_bucket_count(), expected[digits]) << "digits " << digits;
  }
}

TEST(HistogramLayout, BucketCountAndLengthMatchReference) {
  const Histogram hour_us(1, 3600000000, 3);
  EXPECT_EQ(hour_us.bucket_count(), 22);
  EXPECT_EQ(hour_us.counts_length(), 23552);
  const Histogram hour_ns(1, k_hour_ns, 3);
  EXPECT_EQ(hour_ns.bucket_count(), 32);
  EXPECT_EQ(hour_ns.counts_length(), 33792);
}

TEST(HistogramLayout, WorkedExampleOfOneHundredMillion) {
  const Histogram h(1, k_hour_ns, 3);
  const std::int64_t v = 100000000;
  EXPECT_EQ(h.counts_index_for(v), 17909);  // bucket 16, sub-bucket 1525
  EXPECT_EQ(h.value_from_index(17909), 99942400);
  EXPECT_EQ(h.lowest_equivalent(v), 99942400);
  EXPECT_EQ(h.size_of_equivalent_range(v), 65536);
  EXPECT_EQ(h.highest_equivalent(v), 100007935);
  EXPECT_EQ(h.median_equivalent(v), 99975168);
}

TEST(HistogramLayout, IndexAndValueRoundTripForEveryIndex) {
  const Histogram h(1000, k_hour_ns, 2);
  for (std::int32_t i = 0; i < h.counts_length(); ++i) {
    ASSERT_EQ(h.counts_index_for(h.value_from_index(i)), i) << "index " << i;
  }
}

TEST(HistogramLayout, ValidParametersRejectsBadLayouts) {
  EXPECT_TRUE(Histogram::valid_parameters(1, 2, 3));
  EXPECT_FALSE(Histogram::valid_parameters(0, 100, 3));
  EXPECT_FALSE(Histogram::valid_parameters(10, 19, 3));
  EXPECT_FALSE(Histogram::valid_parameters(1, 100, 0));
  EXPECT_FALSE(Histogram::valid_parameters(1, 100, 6));
  EXPECT_FALSE(Histogram::valid_parameters(std::numeric_limits<std::int64_t>::max(),
                                           std::numeric_limits<std::int64_t>::max(), 3));
  EXPECT_FALSE(
      Histogram::valid_parameters(std::int64_t{1} << 52, std::numeric_limits<std::int64_t>::max(), 3));
}

TEST(HistogramRecord, PercentileFollowsJavaRoundingFor1And2) {
  Histogram h(1, k_hour_ns, 3);
  h.record(1);
  h.record(2);
  EXPECT_EQ(h.value_at_percentile(50), 1);
  EXPECT_EQ(h.value_at_percentile(70), 2);  // HdrHistogram_c gives 1 here; Java gives 2
  EXPECT_EQ(h.value_at_percentile(0), 1);
  EXPECT_EQ(h.value_at_percentile(100), 2);
}

TEST(HistogramRecord, ExpectedIntervalAddsMissingValues) {
  Histogram h(1, k_hour_ns, 3);
  ASSERT_TRUE(h.record_with_expected_interval(35, 10));
  EXPECT_EQ(h.total_count(), 3);
  EXPECT_EQ(h.count_at_value(35), 1);
  EXPECT_EQ(h.count_at_value(25), 1);
  EXPECT_EQ(h.count_at_value(15), 1);
  EXPECT_EQ(h.min(), 15);
  EXPECT_EQ(h.max(), 35);
}

TEST(HistogramRecord, ExpectedIntervalEqualsRecordingEachMissingValue) {
  const std::int64_t cases[][2] = {{1000003, 7},       {5000000, 333}, {2047, 1},
                                   {123456789, 99999}, {10, 0},        {10, 20}};
  for (const auto& c : cases) {
    Histogram fast(1, k_hour_ns, 3);
    Histogram slow(1, k_hour_ns, 3);
    fast.record_with_expected_interval(c[0], c[1]);
    slow.record(c[0]);
    if (c[1] > 0) {
      for (std::int64_t m = c[0] - c[1]; m >= c[1]; m -= c[1]) slow.record(m);
    }
    EXPECT_TRUE(fast == slow) << "value " << c[0] << " interval " << c[1];
    EXPECT_EQ(fast.min(), slow.min());
  }
}

TEST(HistogramRecord, RejectsNegativeValuesAndCounts) {
  Histogram h(1, 1000, 3);
  EXPECT_FALSE(h.record(-1));
  EXPECT_FALSE(h.record(5, -1));
  EXPECT_EQ(h.total_count(), 0);
}

TEST(HistogramRecord, FixedRangeAcceptsWhatTheCountsArrayCoversAndNoMore) {
  Histogram h(1, 2, 3);  // one bucket: values 0..2047
  EXPECT_TRUE(h.record(42));
  EXPECT_TRUE(h.record(2047));
  EXPECT_FALSE(h.record(2048));
  EXPECT_EQ(h.total_count(), 2);
  EXPECT_EQ(h.highest_trackable_value(), 2);
}

TEST(HistogramRecord, AutoResizeToOneBillionSetsHighestTrackable) {
  Histogram h = Histogram::auto_resizing(3);
  ASSERT_TRUE(h.record(1000000000));
  EXPECT_EQ(h.highest_trackable_value(), 1073741823);
  EXPECT_EQ(h.total_count(), 1);
  EXPECT_EQ(h.max(), h.highest_equivalent(1000000000));
}

TEST(HistogramRecord, AutoResizeReachesInt64Max) {
  Histogram h = Histogram::auto_resizing(5);
  ASSERT_TRUE(h.record(std::numeric_limits<std::int64_t>::max()));
  EXPECT_EQ(h.max(), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(h.highest_trackable_value(), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(h.value_at_percentile(100), std::numeric_limits<std::int64_t>::max());
}

TEST(HistogramStatistics, TenThousandAtOneMicrosecondAndOneStall) {
  Histogram h(1, 3600000000, 3);
  h.record(1000, 10000);
  h.record(100000000);
  EXPECT_EQ(h.total_count(), 10001);
  EXPECT_EQ(h.max(), 100007935);
  EXPECT_EQ(h.min(), 1000);
  EXPECT_EQ(h.mean(), 10996.417158284172);
  EXPECT_EQ(h.stddev(), 999641.7158284171);
  EXPECT_EQ(h.value_at_percentile(99.99), 1000);
  EXPECT_EQ(h.value_at_percentile(99.999), 100007935);
}

TEST(HistogramStatistics, StallWithExpectedIntervalFillsTheGap) {
  Histogram h(1, 3600000000, 3);
  for (int i = 0; i < 10000; ++i) h.record_with_expected_interval(1000, 10000);
  h.record_with_expected_interval(100000000, 10000);
  EXPECT_EQ(h.total_count(), 20000);
  EXPECT_NEAR(h.mean(), 25003006.6994, 1e-4);
  EXPECT_EQ(h.value_at_percentile(75), 50003967);
  EXPECT_EQ(h.value_at_percentile(90), 80019455);
  EXPECT_EQ(h.value_at_percentile(99), 98041855);
  EXPECT_EQ(h.value_at_percentile(99.9), 99811327);
}

TEST(HistogramStatistics, EmptyHistogramReportsZeros) {
  const Histogram h(1, k_hour_ns, 3);
  EXPECT_EQ(h.total_count(), 0);
  EXPECT_EQ(h.max(), 0);
  EXPECT_EQ(h.min(), 0);
  EXPECT_EQ(h.mean(), 0.0);
  EXPECT_EQ(h.stddev(), 0.0);
  EXPECT_EQ(h.value_at_percentile(99), 0);
}

TEST(HistogramStatistics, MinIsZeroWhenTheUnitBucketHoldsCounts) {
  Histogram h(1000, k_hour_ns, 3);  // unit magnitude 9: values 0..511 share index 0
  h.record(300);
  h.record(5000);
  EXPECT_EQ(h.min(), 0);
  h.reset();
  h.record(5000);
  EXPECT_EQ(h.min(), h.lowest_equivalent(5000));
}

TEST(HistogramStatistics, PercentileOutsideRangeIsClamped) {
  Histogram h(1, k_hour_ns, 3);
  for (int v = 1; v <= 100; ++v) h.record(v);
  EXPECT_EQ(h.value_at_percentile(-5), 1);
  EXPECT_EQ(h.value_at_percentile(150), 100);
  EXPECT_EQ(h.value_at_percentile(std::nan("")), 1);
}

std::vector<std::int64_t> latencies(std::size_t n, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<std::int64_t> values;
  for (std::size_t i = 0; i < n; ++i) {
    // Lognormal-ish nanoseconds around 200 µs with a heavy tail.
    const double z =
        std::sqrt(-2.0 * std::log(rng.uniform_open0())) * std::cos(6.283185307179586 * rng.uniform01());
    values.push_back(static_cast<std::int64_t>(200000.0 * std::exp(1.2 * z)));
  }
  return values;
}

TEST(HistogramMerge, MergeEqualsOneHistogramFedAllSamples) {
  const auto values = latencies(50000, 42);
  Histogram all(1, k_hour_ns, 3);
  std::vector<Histogram> parts(4, Histogram(1, k_hour_ns, 3));
  for (std::size_t i = 0; i < values.size(); ++i) {
    all.record(values[i]);
    parts[i % 4].record(values[i]);
  }
  Histogram merged(1, k_hour_ns, 3);
  for (const auto& p : parts) ASSERT_TRUE(merged.add(p));
  EXPECT_TRUE(merged == all);
  EXPECT_EQ(merged.mean(), all.mean());
  EXPECT_EQ(merged.value_at_percentile(99.9), all.value_at_percentile(99.9));
}

TEST(HistogramMerge, AutoResizingGrowsToTheOthersMax) {
  Histogram big(1, k_hour_ns, 3);
  big.record(5000000000);
  big.record(7);
  Histogram acc = Histogram::auto_resizing(3);
  ASSERT_TRUE(acc.add(big));
  EXPECT_EQ(acc.total_count(), 2);
  EXPECT_EQ(acc.max(), big.max());
  EXPECT_EQ(acc.min(), 7);
  EXPECT_EQ(acc.highest_trackable_value(), big.max());  // Java's add() resizes to the other's max
  EXPECT_EQ(acc.count_at_value(5000000000), 1);
}

TEST(HistogramMerge, FixedRangeRefusesValuesBeyondItsRange) {
  Histogram big(1, k_hour_ns, 3);
  big.record(5000000000);
  Histogram small(1, 1000000, 3);
  small.record(10);
  EXPECT_FALSE(small.add(big));
  EXPECT_EQ(small.total_count(), 1);
}

TEST(HistogramMerge, DifferentLayoutsMergeByValue) {
  Histogram coarse(1, k_hour_ns, 2);
  coarse.record(123456);
  coarse.record(3);
  Histogram fine(1, k_hour_ns, 3);
  ASSERT_TRUE(fine.add(coarse));
  EXPECT_EQ(fine.total_count(), 2);
  EXPECT_EQ(fine.count_at_value(coarse.lowest_equivalent(123456)), 1);
  EXPECT_EQ(fine.count_at_value(3), 1);
}

TEST(HistogramMerge, ResetKeepsLayoutAndClearsCounts) {
  Histogram h(1, k_hour_ns, 3);
  h.record(12345, 3);
  h.reset();
  EXPECT_EQ(h.total_count(), 0);
  EXPECT_EQ(h.max(), 0);
  EXPECT_EQ(h.count_at_value(12345), 0);
  EXPECT_EQ(h.counts_length(), 33792);
  EXPECT_TRUE(h == Histogram(1, k_hour_ns, 3));
}

TEST(HistogramWalk, UsedLengthEndsJustPastTheHighestCount) {
  Histogram h(1, k_hour_ns, 3);
  EXPECT_EQ(h.used_length(), 0);
  h.record(0);
  EXPECT_EQ(h.used_length(), 1);
  h.record(250000);  // 250 µs: about a third of the way into the 33,792 counts
  const std::int32_t top = h.counts_index_for(250000);
  EXPECT_EQ(h.used_length(), top + 1);
  EXPECT_GT(h.count_at_index(top), 0);
  for (std::int32_t i = h.used_length(); i < h.counts_length(); ++i) ASSERT_EQ(h.count_at_index(i), 0) << i;
  // Merged and expected-interval counts stay below it too, and the statistics that stop there are unchanged.
  const auto values = latencies(20000, 7);
  Histogram other(1, k_hour_ns, 3);
  for (const std::int64_t v : values) other.record_with_expected_interval(v, 100000);
  ASSERT_TRUE(h.add(other));
  EXPECT_EQ(h.used_length(), h.counts_index_for(h.raw_max()) + 1);
  std::int64_t below = 0;
  for (std::int32_t i = 0; i < h.used_length(); ++i) below += h.count_at_index(i);
  EXPECT_EQ(below, h.total_count());
  h.reset();  // clears only up to used_length(): every count must be zero after it all the same
  EXPECT_EQ(h.used_length(), 0);
  EXPECT_TRUE(h == Histogram(1, k_hour_ns, 3));
}
}  // namespace
}  // namespace openloop::hdr
