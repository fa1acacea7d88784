// Server-Timing histograms: recording, merging, clearing.
#include "results/recording/server_timing_stats.h"

#include "results/recording/interval_stats.h"

namespace openloop::results {

hdr::Histogram ServerTimingStats::make_histogram() {
  return hdr::Histogram(1, k_max_trackable_ns, 2);
}

void ServerTimingStats::record(Nanos server, Nanos response) {
  record_ns(server_time, server.count());
  const Nanos outside = response - server;
  // Servers print dur in milliseconds, usually to the microsecond (the lab: 3 decimals), so a sum of metrics
  // can exceed a response that took exactly that long by its rounding: not a claim of more than it took.
  if (outside < -k_dur_rounding) ++negative;
  record_ns(outside_server, outside.count());  // clamps a negative difference to 0
}

void ServerTimingStats::add(const ServerTimingStats& o) {
  server_time.add(o.server_time);
  outside_server.add(o.outside_server);
  negative += o.negative;
  malformed += o.malformed;
  no_duration += o.no_duration;
  cache_off += o.cache_off;
  cache_hit += o.cache_hit;
  cache_miss += o.cache_miss;
}

void ServerTimingStats::clear() {
  server_time.reset();
  outside_server.reset();
  negative = malformed = no_duration = cache_off = cache_hit = cache_miss = 0;
}

bool ServerTimingStats::empty() const {
  return server_time.total_count() == 0 && malformed == 0 && no_duration == 0;
}

bool ServerTimingStats::has_layout() const {
  static const std::int32_t length = make_histogram().counts_length();
  return server_time.counts_length() == length && outside_server.counts_length() == length;
}

}  // namespace openloop::results
