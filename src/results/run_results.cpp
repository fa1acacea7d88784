// Summaries and derived rates of a run.
#include "results/run_results.h"

#include "hdr/codec.h"
#include "results/interval_stats.h"

namespace openloop::results {

LatencySummary LatencySummary::of(const hdr::Histogram& h) {
  LatencySummary s;
  s.count = h.total_count();
  if (s.count == 0) return s;
  s.p50 = h.value_at_percentile(50);
  s.p90 = h.value_at_percentile(90);
  s.p99 = h.value_at_percentile(99);
  s.p999 = h.value_at_percentile(99.9);
  s.p9999 = h.value_at_percentile(99.99);
  s.max = h.max();
  s.mean = h.mean();
  return s;
}

RunResults::RunResults()
    : response_time(make_latency_histogram()),
      service_time(make_latency_histogram()),
      send_lateness(make_latency_histogram()) {}

void set_latencies(IntervalResult& r, const hdr::Histogram& response_time, const hdr::Histogram& service_time,
                   const hdr::Histogram& send_lateness, const hdr::Histogram& attempt_time) {
  r.response_time = LatencySummary::of(response_time);
  r.service_time = LatencySummary::of(service_time);
  r.send_lateness = LatencySummary::of(send_lateness);
  r.attempt_time = LatencySummary::of(attempt_time);
  r.response_time_hist = hdr::to_compressed_base64(response_time);
  r.service_time_hist = hdr::to_compressed_base64(service_time);
  r.send_lateness_hist = hdr::to_compressed_base64(send_lateness);
  r.attempt_time_hist = hdr::to_compressed_base64(attempt_time);
}

void set_session_time(IntervalResult& r, const hdr::Histogram& session_time) {
  r.session_time = LatencySummary::of(session_time);
  r.session_time_hist = session_time.total_count() > 0 ? hdr::to_compressed_base64(session_time) : "";
}

namespace {
double per_second(std::uint64_t n, double s) {
  return s > 0 ? static_cast<double>(n) / s : 0.0;
}
}  // namespace

double RunResults::offered_rps() const {
  return per_second(totals.intended, measured_s);
}
double RunResults::sent_rps() const {
  return per_second(totals.sent, measured_s);
}
double RunResults::throughput_rps() const {
  return per_second(totals.completed, measured_s);
}
double RunResults::goodput_rps() const {
  return per_second(totals.ok, measured_s);
}

}  // namespace openloop::results
