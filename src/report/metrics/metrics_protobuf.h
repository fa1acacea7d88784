// The live metrics in Prometheus's protobuf exposition (io.prometheus.client.MetricFamily, length-delimited),
// hand-encoded: the latencies as native histograms (with their classic buckets beside them).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "hdr/histogram.h"
#include "report/metrics/metrics_exposition.h"

namespace openloop::report {

inline constexpr const char* k_protobuf_type =
    "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited";

/// The native histogram schema used: 8, buckets 2^(1/256) wide (0.27 %), the finest Prometheus allows and the
/// closest to HdrHistogram's 3 significant digits (0.05–0.1 %).
inline constexpr int k_native_schema = 8;

/// A histogram in native buckets: bucket i holds values in (2^((i−1)/2^schema), 2^(i/2^schema)] (in seconds);
/// values of 0 go to the zero bucket.
struct NativeBuckets {
  int schema = k_native_schema;
  std::uint64_t zero_count = 0;
  std::vector<std::pair<std::int32_t, std::uint64_t>> buckets;  ///< (index, count), ascending, counts > 0
};

/// Each HdrHistogram bucket's count goes to the native bucket holding its middle value (nanoseconds →
/// seconds): an HDR bucket is narrower than a native one, so a count moves by at most one native bucket.
NativeBuckets native_buckets(const hdr::Histogram& h, int schema = k_native_schema);

/// render_families_protobuf() of run_metric_families().
std::string render_metrics_protobuf(const MetricsState& state, const MetricsContext& context);

}  // namespace openloop::report
