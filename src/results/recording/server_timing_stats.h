// The server's own account of its time (Server-Timing response headers) and what lies outside it.
#pragma once

#include <cstdint>

#include "core/time.h"
#include "hdr/histogram.h"

namespace openloop::results {

/// Server-reported time and time outside the server, for the responses that carried a usable Server-Timing
/// header (http/server_timing.h: the sum of every metric's dur, or one named metric's). Histograms in
/// nanoseconds with 2 significant digits (as the phases: read as percentiles; the subtraction is made per
/// response, before recording). Mergeable exactly.
struct ServerTimingStats {
  /// What the server reported (dur), one sample per usable header.
  hdr::Histogram server_time = make_histogram();
  /// Response time (completion − intended time) − server time: the client, the network and any queueing
  /// before the server's timer started. A negative difference (the server claims more than the whole
  /// response took) is recorded as 0 and counted in `negative`.
  hdr::Histogram outside_server = make_histogram();
  /// A negative difference within this is the header's rounding (dur printed to the microsecond), not counted.
  static constexpr Nanos k_dur_rounding{1000};
  std::uint64_t negative = 0;  ///< outside-the-server times below −k_dur_rounding, recorded as 0
  std::uint64_t malformed = 0;    ///< responses whose Server-Timing was unreadable: ignored
  std::uint64_t no_duration = 0;  ///< Server-Timing present but no dur (or not the selected metric's)
  /// Responses whose Server-Timing said what a cache did (`cache;desc=...`, http/server_timing.h): the server
  /// has none, a hit, a miss. Whole-run counts (not kept per interval).
  std::uint64_t cache_off = 0;
  std::uint64_t cache_hit = 0;
  std::uint64_t cache_miss = 0;

  /// Records one response: `server` is the header's duration, `response` its response time. Allocation-free.
  void record(Nanos server, Nanos response);
  void add(const ServerTimingStats& o);
  void clear();
  /// No response carried the header (nothing recorded or counted).
  bool empty() const;
  bool has_layout() const;
  /// Responses with a usable header.
  std::int64_t count() const { return server_time.total_count(); }

  static hdr::Histogram make_histogram();
};

}  // namespace openloop::results
