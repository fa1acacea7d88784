// Interval construction and merging.
#include "results/interval_stats.h"

namespace openloop::results {

hdr::Histogram make_latency_histogram() { return hdr::Histogram(1, k_max_trackable_ns, k_significant_digits); }

void IntervalStats::add(const IntervalStats& other) {
  counters.add(other.counters);
  response_time.add(other.response_time);
  service_time.add(other.service_time);
  send_lateness.add(other.send_lateness);
}

}  // namespace openloop::results
