// Step analysis: the window's totals, percentiles and CIs, then the generator's validity and the system's
// steadiness.
#include "procedures/ramp/ramp_step.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/units.h"

namespace openloop::procedures {
namespace {

constexpr double k_percentiles[] = {50, 90, 99, 99.9};

double ratio(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
}

// Requests in the system during interval i by Little's law: the time its requests spent in the system
// (response time, timeouts censored at the deadline) divided by the interval's length.
double in_flight(const results::IntervalResult& in) {
  return in.length_s > 0
             ? static_cast<double>(in.response_time.count) * in.response_time.mean / 1e9 / in.length_s
             : 0.0;
}

// Least-squares slope of y over x.
double slope(const std::vector<double>& x, const std::vector<double>& y) {
  const double n = static_cast<double>(x.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sx += x[i];
    sy += y[i];
    sxx += x[i] * x[i];
    sxy += x[i] * y[i];
  }
  const double den = n * sxx - sx * sx;
  return den > 0 ? (n * sxy - sx * sy) / den : 0.0;
}

void backlog(const results::IntervalSeries& in, double window_s, StepAnalysis& a) {
  std::vector<double> t, l;
  for (const auto& i : in) {
    t.push_back(i.start_s + i.length_s / 2);
    l.push_back(in_flight(i));
  }
  double sum = 0;
  for (const double v : l) sum += v;
  a.mean_in_flight = l.empty() ? 0.0 : sum / static_cast<double>(l.size());
  a.in_flight_growth = l.size() >= 2 ? slope(t, l) * window_s : 0.0;
}

// Coefficient of variation of each second's goodput, normalised by that second's arrivals (ok / intended ×
// the step's rate), so a Poisson schedule's own burstiness is not mistaken for an unsteady system.
double goodput_cv(const results::IntervalSeries& in) {
  std::vector<double> g;
  for (const auto& i : in) {
    if (i.counters.intended > 0) g.push_back(ratio(i.counters.ok, i.counters.intended));
  }
  if (g.size() < 2) return 0.0;
  double mean = 0, var = 0;
  for (const double v : g) mean += v;
  mean /= static_cast<double>(g.size());
  if (mean <= 0) return 0.0;
  for (const double v : g) var += (v - mean) * (v - mean);
  return std::sqrt(var / static_cast<double>(g.size() - 1)) / mean;
}

struct Half {
  double goodput = 0;  // ok / intended
  double mean_ms = 0;
};

Half half_of(const results::IntervalSeries& in, std::size_t from, std::size_t to) {
  std::uint64_t ok = 0, intended = 0;
  double time_ns = 0, count = 0;
  for (std::size_t i = from; i < to; ++i) {
    ok += in[i].counters.ok;
    intended += in[i].counters.intended;
    time_ns += in[i].response_time.mean * static_cast<double>(in[i].response_time.count);
    count += static_cast<double>(in[i].response_time.count);
  }
  return {ratio(ok, intended), count > 0 ? time_ns / count / 1e6 : 0.0};
}

void halves(const results::IntervalSeries& in, StepAnalysis& a) {
  const std::size_t h = in.size() / 2;
  const Half first = half_of(in, 0, h), second = half_of(in, in.size() - h, in.size());
  a.first_half_goodput = first.goodput;
  a.second_half_goodput = second.goodput;
  a.first_half_mean_ms = first.mean_ms;
  a.second_half_mean_ms = second.mean_ms;
}

void judge_steadiness(const StepAnalysis& a, const SteadyBounds& b, std::vector<std::string>& why) {
  if (a.goodput_cv > b.max_goodput_cv) {
    why.push_back(fmt::format("per-second goodput varies: coefficient of variation {:.1f}% > {:.0f}%",
                              100 * a.goodput_cv, 100 * b.max_goodput_cv));
  }
  const double g1 = a.first_half_goodput, g2 = a.second_half_goodput;
  if (std::abs(g1 - g2) > b.max_half_difference * std::max(g1, g2)) {
    why.push_back(
        fmt::format("the halves disagree: goodput {:.1f}% of arrivals in the first, {:.1f}% in the second",
                    100 * g1, 100 * g2));
  }
  const double m1 = a.first_half_mean_ms, m2 = a.second_half_mean_ms,
               floor_ms = to_seconds(b.half_mean_floor) * 1e3;
  if (std::abs(m1 - m2) > floor_ms && std::max(m1, m2) > b.half_mean_ratio * std::min(m1, m2)) {
    why.push_back(fmt::format("the halves disagree: mean response time {} in the first, {} in the second",
                              format_duration(from_seconds(m1 / 1e3)),
                              format_duration(from_seconds(m2 / 1e3))));
  }
  if (a.in_flight_growth > std::max(b.backlog_floor, b.backlog_fraction * a.mean_in_flight)) {
    why.push_back(
        fmt::format("a backlog is growing: requests in flight rose by {:.0f} over the step (mean {:.1f}): "
                    "offered is above what the target completes",
                    a.in_flight_growth, a.mean_in_flight));
  }
}

void judge(StepAnalysis& a, const SteadyBounds& b) {
  results::VerdictBounds gen = b.generator;
  gen.min_sent_fraction =
      0;  // unsent requests that failed to connect are the target's doing, not the generator's
  const results::Verdict v = results::judge(a.results, gen);
  if (!v.valid) {
    a.state = StepState::invalid;
    a.reasons = v.reasons;
    return;
  }
  if (a.results.intervals.size() < 2) {
    a.state = StepState::unsteady;
    a.reasons.push_back("too short to judge: the step's measured part holds fewer than 2 whole intervals");
    return;
  }
  judge_steadiness(a, b, a.reasons);
  a.state = a.reasons.empty() ? StepState::steady : StepState::unsteady;
}

}  // namespace

const char* to_string(StepState s) {
  switch (s) {
    case StepState::steady:
      return "STEADY";
    case StepState::unsteady:
      return "UNSTEADY";
    case StepState::invalid:
      return "INVALID";
  }
  return "?";
}

void widen_intervals(StepAnalysis& a, const results::RunChecks& checks) {
  const results::IndependenceCheck* c = checks.window(a.window.from_s, a.window.to_s);
  if (c == nullptr || !c->tested) return;
  a.independence = *c;
  const double n = static_cast<double>(a.results.response_time.total_count());
  for (std::size_t i = 0; i < a.latency.size(); ++i) {
    a.latency[i] =
        stats::estimate_quantile(a.results.response_time, k_percentiles[i], 1.96, n * c->effective_fraction);
  }
}

Result<StepAnalysis> analyse_step(const results::RunResults& run, const StepWindow& w,
                                  const StepContext& ctx) {
  StepAnalysis a;
  a.window = w;
  results::GoodputDeadline goodput{ctx.deadline, ctx.timeout};
  a.results = OPENLOOP_TRY(results::slice_run(run, w.from_s, w.to_s, goodput));
  a.goodput_exact = goodput.exact;
  a.results.info.offered_rps = w.offered_rps;
  const auto& r = a.results;
  a.sent_rps = r.sent_rps();
  a.completed_of_arrivals_rps = r.throughput_rps();
  a.completed_rps = OPENLOOP_TRY(results::completions_per_second(run, w.from_s, w.to_s, ctx.timeout));
  a.goodput_rps = r.goodput_rps();
  for (std::size_t i = 0; i < a.latency.size(); ++i)
    a.latency[i] = stats::estimate_quantile(r.response_time, k_percentiles[i]);
  widen_intervals(a, run.checks);  // a finished run's (a single step's, a file read back); live: not yet
  const std::int64_t timeout_ns = ctx.timeout.count();
  a.p99_censored = a.latency[2].count > 0 && timeout_ns > 0 &&
                   a.latency[2].value >= r.response_time.lowest_equivalent(timeout_ns);
  if (r.send_lateness.total_count() > 0) {
    a.lateness_p99_ms = static_cast<double>(r.send_lateness.value_at_percentile(99)) / 1e6;
  }
  backlog(r.intervals, r.measured_s, a);
  a.goodput_cv = goodput_cv(r.intervals);
  halves(r.intervals, a);
  judge(a, ctx.bounds);
  return a;
}

}  // namespace openloop::procedures
