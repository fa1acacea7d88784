// One finished interval of a run: its counters, latency summaries and compressed histograms.
#pragma once

#include <cstdint>
#include <vector>

#include "hdr/histogram.h"
#include "results/recording/counters.h"
#include "results/recording/encoded_histogram.h"
#include "results/recording/interval_stats.h"

namespace openloop::results {

/// Percentiles of one latency histogram, in nanoseconds.
struct LatencySummary {
  std::int64_t p50 = 0, p90 = 0, p99 = 0, p999 = 0, p9999 = 0, max = 0;
  double mean = 0;
  std::int64_t count = 0;
  static LatencySummary of(const hdr::Histogram& h);
};

/// One finished interval: counters, summaries and the histograms as compressed V2 base64 (nanoseconds).
struct IntervalResult {
  double start_s = 0;  ///< since the start of measurement
  double length_s = 1;
  Counters counters;
  LatencySummary response_time, service_time, send_lateness;
  EncodedHistogram response_time_hist, service_time_hist, send_lateness_hist;  ///< "HISTFAAAA..."
  LatencySummary attempt_time;  ///< each attempt's start → its outcome (several per request with retries)
  EncodedHistogram attempt_time_hist;  ///< empty in files written before attempts were recorded
  FlowCounters flows;                  ///< iterations and sessions started in this interval
  LatencySummary session_time;         ///< sessions model: session end − session intended start
  EncodedHistogram session_time_hist;  ///< its histogram; empty when no session ended in this interval
  LatencySummary slot_wait;            ///< queued arrivals' waits for a free connection or stream
  EncodedHistogram slot_wait_hist;     ///< its histogram; empty when no arrival of this interval waited
  std::vector<Counters>
      by_request;  ///< per request (index as RunInfo::request_names); empty with one request
  /// Responses with a Server-Timing header (see ServerTimingStats): server-reported time and time outside
  /// the server, their histograms (empty when no response in this interval carried a usable header), and
  /// the counts of negative differences, unreadable headers and headers without a duration.
  LatencySummary server_time, outside_server;
  EncodedHistogram server_time_hist, outside_server_hist;
  std::uint64_t server_timing_negative = 0, server_timing_malformed = 0, server_timing_no_duration = 0;
  /// --observe: one value per RunResults::observed signal (NaN: none sampled); empty without --observe.
  std::vector<double> observed;
  /// --coalesce auto: the wake-up window used for this interval's sends, µs (the widest of the workers'; −1:
  /// not auto).
  double coalesce_us = -1;
};

}  // namespace openloop::results
