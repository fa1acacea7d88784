// Builders for tests of runs cut into windows: intervals with real encoded histograms and runs made of them.
#pragma once

#include <cstdint>
#include <vector>

#include "hdr/codec.h"
#include "results/run_results.h"

namespace run_builders {

using namespace openloop;

/// One interval: `ok` successes and `bad_status` other completions (each taking `rt_ns`), `timeouts`
/// (recorded at `timeout_ns`) and `dropped`; intended is their sum (conservation), every send `late_ns` late.
struct IntervalSpec {
  double start_s = 0, length_s = 1;
  std::uint64_t ok = 100, bad_status = 0, timeouts = 0, dropped = 0;
  std::int64_t rt_ns = 5'000'000, late_ns = 50'000, timeout_ns = 1'000'000'000;
};

inline results::IntervalResult interval(const IntervalSpec& s) {
  results::IntervalResult in;
  in.start_s = s.start_s;
  in.length_s = s.length_s;
  auto& c = in.counters;
  c.completed = s.ok + s.bad_status;
  c.ok = s.ok;
  c.timeouts = s.timeouts;
  c.dropped = s.dropped;
  c.sent = c.completed + c.timeouts;
  c.intended = c.sent + c.dropped;
  auto rt = results::make_latency_histogram(), st = results::make_latency_histogram(),
       sl = results::make_latency_histogram();
  rt.record(s.rt_ns, static_cast<std::int64_t>(c.completed));
  if (s.timeouts > 0) rt.record(s.timeout_ns, static_cast<std::int64_t>(s.timeouts));
  st.record(s.rt_ns, static_cast<std::int64_t>(c.completed));
  sl.record(s.late_ns, static_cast<std::int64_t>(c.sent));
  in.response_time = results::LatencySummary::of(rt);
  in.service_time = results::LatencySummary::of(st);
  in.send_lateness = results::LatencySummary::of(sl);
  in.response_time_hist = hdr::to_compressed_base64(rt);
  in.service_time_hist = hdr::to_compressed_base64(st);
  in.send_lateness_hist = hdr::to_compressed_base64(sl);
  return in;
}

/// A run of these intervals (open model, timeout 1 s).
inline results::RunResults run_of(const std::vector<IntervalSpec>& specs) {
  results::RunResults r;
  r.info.model = results::Model::open;
  r.info.timeout_s = 1;
  for (const auto& s : specs) {
    r.intervals.push_back(interval(s));
    r.measured_s += s.length_s;
  }
  return r;
}

/// `n` steady seconds from `start_s` at `rate` with response time `rt_ns`.
inline std::vector<IntervalSpec> steady(double start_s, int n, std::uint64_t rate, std::int64_t rt_ns) {
  std::vector<IntervalSpec> out;
  for (int i = 0; i < n; ++i) {
    IntervalSpec s;
    s.start_s = start_s + i;
    s.ok = rate;
    s.rt_ns = rt_ns;
    out.push_back(s);
  }
  return out;
}

}  // namespace run_builders
