// Native buckets from an HdrHistogram, and the protobuf's length-delimited framing.
#include "report/metrics_protobuf.h"

#include <cmath>

#include <gtest/gtest.h>

#include "results/interval_stats.h"

namespace openloop::report {
namespace {

TEST(NativeBuckets, EachCountLandsInTheBucketHoldingItsValue) {
  hdr::Histogram h = results::make_latency_histogram();
  h.record(0, 2);
  h.record(1'500'000, 3);    // 1.5 ms
  h.record(250'000'000, 5);  // 250 ms
  const NativeBuckets nb = native_buckets(h);
  EXPECT_EQ(nb.schema, 8);
  EXPECT_EQ(nb.zero_count, 2u);
  ASSERT_EQ(nb.buckets.size(), 2u);
  for (const auto& [index, count] : nb.buckets) {
    const double upper = std::pow(2.0, index / 256.0), lower = std::pow(2.0, (index - 1) / 256.0);
    const double v = count == 3 ? 0.0015 : 0.25;
    // HdrHistogram's bucket middle is within 0.1 % of the value: the native bucket holds it or is next to it.
    EXPECT_LE(lower, v * 1.003) << index;
    EXPECT_GE(upper, v / 1.003) << index;
  }
  EXPECT_EQ(nb.buckets[0].second, 3u);
  EXPECT_EQ(nb.buckets[1].second, 5u);
}

TEST(RenderMetricsProtobuf, IsASequenceOfLengthDelimitedFamilies) {
  MetricsState s;
  s.totals.intended = 5;
  s.response_time.record(1'000'000, 5);
  const std::string pb = render_metrics_protobuf(s, {"r1", "", {}, 10});
  std::size_t at = 0, families = 0;
  while (at < pb.size()) {
    std::uint64_t len = 0;
    int shift = 0;
    while (true) {
      const auto b = static_cast<unsigned char>(pb[at++]);
      len |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      shift += 7;
      if ((b & 0x80) == 0) break;
    }
    ASSERT_LE(at + len, pb.size());
    EXPECT_EQ(pb[at], 0x0a);  // field 1 (name), length-delimited
    at += len;
    ++families;
  }
  EXPECT_EQ(at, pb.size());
  EXPECT_EQ(families, 17u);
  EXPECT_NE(pb.find("openloop_response_time_seconds"), std::string::npos);
}

}  // namespace
}  // namespace openloop::report
