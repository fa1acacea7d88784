// Cutting a step's measured window out of a run: counters added, histograms decoded and merged, goodput
// recounted.
#include "results/merging/slice_run.h"

#include <algorithm>

#include <fmt/format.h>

#include "hdr/codec.h"
#include "results/judging/timer_floor.h"
#include "stats/quantile_ci.h"

namespace openloop::results {
namespace {

// Interval edges come from sums of floating-point seconds: allow a microsecond of round-off.
constexpr double k_edge_slack_s = 1e-6;

Result<hdr::Histogram> decode(const std::string& text, double start_s, const char* tag) {
  hdr::Histogram out = make_latency_histogram();
  if (text.empty()) return out;
  auto h = hdr::from_compressed_base64(text);
  if (!h) {
    return usage_error(fmt::format("interval at {}s: {} histogram: {}", start_s, tag, h.error().message));
  }
  out.add(*h);
  return out;
}

// ok within the deadline, as a lower bound: samples at or below it that were neither non-ok completions nor
// unfinished requests (both are in the response-time histogram; timeouts are recorded at the timeout, above
// it).
std::uint64_t ok_within(const hdr::Histogram& rt, const Counters& c, Nanos deadline, bool& exact) {
  const auto below = static_cast<std::uint64_t>(stats::count_at_or_below(rt, deadline.count()));
  const std::uint64_t not_ok = (c.completed - c.ok) + c.unfinished;
  const std::uint64_t high = std::min(c.ok, below);
  const std::uint64_t low = below > not_ok ? std::min(c.ok, below - not_ok) : 0;
  if (low != high) exact = false;
  return low;
}

struct Accumulated {
  RunResults run;
  double length_s = 0;
};

Result<void> add_interval(Accumulated& acc, IntervalResult in, double from_s, Nanos deadline,
                          bool recount, bool& exact, const std::vector<std::string>& names) {
  RunResults part = OPENLOOP_TRY(interval_as_run(in, names));
  if (recount) {
    in.counters.ok = part.totals.ok = ok_within(part.response_time, in.counters, deadline, exact);
    // Intervals keep no per-request histograms, so no request's own ok can be recounted: leave them out rather
    // than show counts on another basis than the totals.
    part.by_request.clear();
  }
  acc.run.add(part, names);
  acc.length_s += in.length_s;
  in.start_s -= from_s;
  acc.run.intervals.push_back(std::move(in));
  return {};
}

}  // namespace

Result<RunResults> slice_run(const RunResults& run, double from_s, double to_s,
                                      GoodputDeadline& goodput) {
  const bool recount = goodput.deadline.count() > 0 && goodput.deadline < goodput.timeout;
  goodput.exact = true;
  Accumulated acc;
  for (const auto& in : run.intervals) {
    if (in.start_s + k_edge_slack_s < from_s || in.start_s + in.length_s > to_s + k_edge_slack_s) continue;
    OPENLOOP_TRY_VOID(
        add_interval(acc, in, from_s, goodput.deadline, recount, goodput.exact, run.info.request_names));
  }
  RunResults& r = acc.run;
  r.info = run.info;
  drop_run_timer_floor(r.info);  // the run's figure, as its CPU is: a window has none of its own
  if (recount && run.info.request_names.size() > 1) r.by_request.clear();  // see add_interval
  r.measured_s = acc.length_s;
  r.info.duration_s = to_s - from_s;
  r.info.warmup_s = 0;
  r.info.offered_rps = acc.length_s > 0 ? static_cast<double>(r.totals.intended) / acc.length_s : 0.0;
  if (run.info.start_unix_s > 0) r.info.start_unix_s = run.info.start_unix_s + from_s;
  r.interrupted = false;
  return std::move(acc.run);
}

Result<double> completions_per_second(const RunResults& run, double from_s, double to_s,
                                      Nanos timeout) {
  if (to_s <= from_s) return 0.0;
  const double timeout_s = to_seconds(timeout);
  double completions = 0;
  for (const auto& in : run.intervals) {
    if (in.start_s + in.length_s <= from_s - timeout_s || in.start_s >= to_s || in.length_s <= 0) continue;
    const hdr::Histogram rt = OPENLOOP_TRY(decode(in.response_time_hist.text(), in.start_s, "response_time"));
    const std::int64_t censored = timeout.count() > 0 ? rt.lowest_equivalent(timeout.count()) : INT64_MAX;
    for (std::int32_t i = 0, used = rt.used_length(); i < used; ++i) {
      const std::int64_t count = rt.count_at_index(i);
      const std::int64_t value = rt.value_from_index(i);
      if (count == 0) continue;
      if (value >= censored) break;
      // This bucket's responses arrived over [start + v, start + length + v), evenly.
      const double v = static_cast<double>(rt.median_equivalent(value)) / 1e9;
      const double lo = std::max(from_s, in.start_s + v), hi = std::min(to_s, in.start_s + in.length_s + v);
      if (hi > lo) completions += static_cast<double>(count) * (hi - lo) / in.length_s;
    }
  }
  return completions / (to_s - from_s);
}

}  // namespace openloop::results
