// Native buckets from an HdrHistogram, and the protobuf's length-delimited framing.
#include "report/metrics/metrics_protobuf.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "results/recording/interval_stats.h"

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

TEST(NativeBuckets, EqualTheLogarithmOfEveryCountedValue) {
  // The walk takes a logarithm only when a value passes the current bucket's top: on values from 1 µs to 100 s
  // (every HdrHistogram bucket across eight decades, and around the exact powers of two in seconds) it must
  // put every count where ceil(log2(value) * 2^schema) says.
  hdr::Histogram h = results::make_latency_histogram();
  for (double v = 1000; v < 1e11; v *= 1.0007) h.record(static_cast<std::int64_t>(v));
  for (int e = -10; e <= 6; ++e) {
    const auto at = static_cast<std::int64_t>(std::ldexp(1e9, e));
    for (std::int64_t d = -3; d <= 3; ++d) h.record(at + d);
  }
  std::vector<std::pair<std::int32_t, std::uint64_t>> expected;
  for (std::int32_t i = 0; i < h.counts_length(); ++i) {
    const std::int64_t c = h.count_at_index(i);
    if (c == 0) continue;
    const double seconds = static_cast<double>(h.median_equivalent(h.value_from_index(i))) / 1e9;
    const auto index = static_cast<std::int32_t>(std::ceil(std::log2(seconds) * 256));
    if (!expected.empty() && expected.back().first == index) {
      expected.back().second += static_cast<std::uint64_t>(c);
    } else {
      expected.emplace_back(index, static_cast<std::uint64_t>(c));
    }
  }
  const NativeBuckets nb = native_buckets(h);
  EXPECT_GT(nb.buckets.size(), 6000u);
  EXPECT_EQ(nb.buckets, expected);
}

// The names of the length-delimited MetricFamily messages in `pb`, in order; fails the test on a bad frame.
std::vector<std::string> family_names(const std::string& pb) {
  std::vector<std::string> names;
  std::size_t at = 0;
  const auto varint = [&] {
    std::uint64_t v = 0;
    int shift = 0;
    while (at < pb.size()) {
      const auto b = static_cast<unsigned char>(pb[at++]);
      v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      shift += 7;
      if ((b & 0x80) == 0) break;
    }
    return v;
  };
  while (at < pb.size()) {
    const std::uint64_t len = varint();
    EXPECT_LE(at + len, pb.size());
    if (at + len > pb.size()) break;
    const std::size_t end = at + len;
    EXPECT_EQ(pb[at], 0x0a);  // field 1 (name), length-delimited
    ++at;
    const std::uint64_t name_len = varint();
    names.push_back(pb.substr(at, name_len));
    at = end;
  }
  return names;
}

TEST(RenderMetricsProtobuf, IsASequenceOfLengthDelimitedFamilies) {
  MetricsState s;
  s.totals.intended = 5;
  s.response_time.record(1'000'000, 5);
  const std::vector<std::string> names = family_names(render_metrics_protobuf(s, {"r1", "", {}, 10, {}, {}}));
  // every family of run_metric_families(), connections open, resent and the slot waits included
  EXPECT_EQ(names.size(), 23u);
  EXPECT_NE(std::find(names.begin(), names.end(), "openloop_response_time_seconds"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "openloop_slot_wait_seconds"), names.end());
}

TEST(RenderMetricsProtobuf, CarriesEveryFamilyOfTheTextInOrder) {
  MetricsState s;
  s.response_time.record(2'000'000, 3);
  const MetricsContext c{"r1", "", {"a", "b"}, 10, {{"step", "3"}}, {}};
  std::vector<std::string> text_names;
  const std::string text = render_metrics(s, c, false);
  for (std::size_t at = text.find("# TYPE "); at != std::string::npos; at = text.find("# TYPE ", at + 1)) {
    const std::size_t start = at + 7;
    text_names.push_back(text.substr(start, text.find(' ', start) - start));
  }
  EXPECT_EQ(family_names(render_metrics_protobuf(s, c)), text_names);
  EXPECT_NE(text.find("{run_id=\"r1\",scenario=\"\",step=\"3\",request=\"\"}"), std::string::npos) << text;
}

}  // namespace
}  // namespace openloop::report
