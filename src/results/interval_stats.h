// One interval's measurements: the three latency histograms (nanoseconds) and the outcome counters.
#pragma once

#include <cstdint>

#include "hdr/histogram.h"
#include "results/counters.h"

namespace openloop::results {

/// Highest latency the histograms track: one hour in nanoseconds. Longer values are clamped to it.
inline constexpr std::int64_t k_max_trackable_ns = 3'600'000'000'000;
/// Significant digits of every latency histogram.
inline constexpr int k_significant_digits = 3;

/// A latency histogram with openloop's standard layout (1 ns .. 1 h, 3 digits).
hdr::Histogram make_latency_histogram();

/// Measurements of the requests whose intended time falls in one interval. `index` is the interval number since
/// the start of measurement (−1 holds the warm-up).
struct IntervalStats {
  std::int64_t index = 0;
  Counters counters;
  hdr::Histogram response_time = make_latency_histogram();  ///< completion (or censoring) − intended time
  hdr::Histogram service_time = make_latency_histogram();   ///< completion − actual send
  hdr::Histogram send_lateness = make_latency_histogram();  ///< actual send − intended time

  /// Exact merge of another interval's data (same or different index).
  void add(const IntervalStats& other);
};

/// Records value in nanoseconds, clamping to [0, k_max_trackable_ns] so nothing is ever lost.
inline void record_ns(hdr::Histogram& h, std::int64_t ns) {
  h.record(ns < 0 ? 0 : (ns > k_max_trackable_ns ? k_max_trackable_ns : ns));
}

}  // namespace openloop::results
