// Interval construction and merging.
#include "results/recording/interval_stats.h"

#include <algorithm>

namespace openloop::results {

hdr::Histogram make_latency_histogram() {
  return hdr::Histogram(1, k_max_trackable_ns, k_significant_digits);
}

void FlowCounters::add(const FlowCounters& o) {
  iterations += o.iterations;
  sessions_intended += o.sessions_intended;
  sessions_completed += o.sessions_completed;
  sessions_failed += o.sessions_failed;
  sessions_dropped += o.sessions_dropped;
  sessions_unfinished += o.sessions_unfinished;
  captures_failed += o.captures_failed;
  checks_failed += o.checks_failed;
  stopped += o.stopped;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    steps[i].captures_failed += o.steps[i].captures_failed;
    steps[i].checks_failed += o.steps[i].checks_failed;
    steps[i].stopped += o.steps[i].stopped;
  }
}

void RequestStats::add(const RequestStats& o) {
  counters.add(o.counters);
  response_time.add(o.response_time);
  service_time.add(o.service_time);
}

void IntervalStats::clear() {
  index = 0;
  counters = Counters{};
  for (hdr::Histogram* h : {&response_time, &service_time, &send_lateness, &attempt_time, &session_time, &slot_wait})
    h->reset();
  flows = FlowCounters{};
  phases.clear();
  server_timing.clear();
  coalesce_ns = -1;
  for (auto& r : by_request) {
    r.counters = Counters{};
    r.response_time.reset();
    r.service_time.reset();
  }
}

bool IntervalStats::has_layout(std::int32_t counts_length, std::size_t requests) const {
  const auto fits = [counts_length](const hdr::Histogram& h) { return h.counts_length() == counts_length; };
  if (by_request.size() != requests) return false;
  for (const auto& r : by_request)
    if (!fits(r.response_time) || !fits(r.service_time)) return false;
  return fits(response_time) && fits(service_time) && fits(send_lateness) && fits(attempt_time) &&
         fits(session_time) && fits(slot_wait) && phases.has_layout() && server_timing.has_layout();
}

void IntervalStats::add(const IntervalStats& other) {
  counters.add(other.counters);
  response_time.add(other.response_time);
  service_time.add(other.service_time);
  send_lateness.add(other.send_lateness);
  attempt_time.add(other.attempt_time);
  flows.add(other.flows);
  session_time.add(other.session_time);
  slot_wait.add(other.slot_wait);
  phases.add(other.phases);
  server_timing.add(other.server_timing);
  coalesce_ns = std::max(coalesce_ns, other.coalesce_ns);
  if (by_request.size() < other.by_request.size()) by_request.resize(other.by_request.size());
  for (std::size_t i = 0; i < other.by_request.size(); ++i) by_request[i].add(other.by_request[i]);
}

}  // namespace openloop::results
