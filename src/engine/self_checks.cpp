// The run's self-checks from the workers' stamps: each lane's arrivals against its plan, the response times'
// dependence, and the percentiles' intervals on the effective sample size.
#include "engine/self_checks.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/rng.h"
#include "engine/run_plan.h"
#include "engine/worker.h"
#include "stats/anderson_darling.h"
#include "stats/autocorrelation.h"
#include "stats/gap_dispersion.h"
#include "stats/quantile_ci.h"

namespace openloop::engine {

namespace {
// A² on more gaps than this detects departures nobody would call a different process (timer jitter of a few
// microseconds at ordinary rates); 2,000 evenly spread gaps still catch a shift of about 4 % in the gaps'
// distribution (the Kolmogorov distance 1.63/√n at 1 %). docs/statistics.md.
constexpr std::size_t k_ad_sample = 2000;
constexpr stats::Level k_level = stats::Level::p01;
// Bunching beyond the plan by more than this share of gaps, and by at least this many gaps, fails a constant
// lane: a share of a few gaps is one stall, which the lateness check judges, not a pattern of the process.
constexpr double k_bunching_excess = 0.05;
constexpr double k_min_bunched_gaps = 10;
constexpr std::size_t k_min_latencies = 100;

double ns(Nanos d) {
  return static_cast<double>(d.count());
}

// Indices of at most k_ad_sample gaps spread evenly over n.
std::vector<std::size_t> spread_sample(std::size_t n) {
  const std::size_t m = std::min(n, k_ad_sample);
  std::vector<std::size_t> idx(m);
  for (std::size_t i = 0; i < m; ++i) idx[i] = i * n / m;
  return idx;
}

void check_constant(const std::vector<ArrivalStamp>& s, const SelfCheckSettings& settings,
                    results::LaneArrivals& lane) {
  std::vector<double> planned(s.size() - 1), achieved(s.size() - 1);
  for (std::size_t k = 0; k + 1 < s.size(); ++k) {
    planned[k] = ns(s[k + 1].intended - s[k].intended);
    achieved[k] = ns(s[k + 1].issued - s[k].issued);
  }
  const double mean_planned =
      (ns(s.back().intended) - ns(s.front().intended)) / static_cast<double>(planned.size());
  lane.bunch_below_ns = mean_planned / 10;
  // A gap counts as bunched only when it is also shorter than planned by more than the timing resolution the
  // run judges by (SelfCheckSettings::resolution_ns): at 50,000/s two arrivals in one loop round are on time.
  const stats::GapDispersion g =
      stats::gap_dispersion(achieved, planned, lane.bunch_below_ns, settings.resolution_ns());
  lane.test = "dispersion";
  lane.tested = g.n;
  // Robust: one stall in a short run would otherwise dominate the spread (the lateness check judges stalls).
  lane.statistic = g.robust_sd_deviation / settings.lateness_bound_ns;
  lane.critical = 1.0;
  lane.bunched = g.bunched;
  lane.planned_bunched = g.planned_bunched;
  const double excess = g.bunched - g.planned_bunched;
  const bool bunched = excess > k_bunching_excess && excess * static_cast<double>(g.n) >= k_min_bunched_gaps;
  lane.passed = lane.statistic <= lane.critical && !bunched;
}

void check_poisson(const RunPlan& plan, unsigned worker, const std::vector<ArrivalStamp>& s,
                   double resolution_ns, results::LaneArrivals& lane) {
  const workload::ShardSpec& host = plan.shard;
  const unsigned workers = std::max(1u, plan.threads);
  // The lane's plan (workload/arrival_schedule.h): striped, gap k spans the global arrivals between its
  // indices, Erlang(d) in Λ; thinned, exponential with mean `stretch` in Λ.
  const bool striped = host.poisson_split == workload::PoissonSplit::stripe;
  const double stretch = host.sharded()
                             ? static_cast<double>(workers) * static_cast<double>(host.weight_sum()) /
                                   static_cast<double>(host.weights[host.index])
                             : static_cast<double>(workers);
  const workload::ShardStripe stripe(host);
  const auto global = [&](std::size_t k) { return stripe.global(worker + k * workers); };
  const std::size_t n = s.size() - 1;
  std::vector<double> gaps(n);
  // Gaps shorter than the timing resolution the run judges by (SelfCheckSettings::resolution_ns) are not told
  // apart: arrivals due within a few microseconds of each other are issued in one loop round (a gap of
  // exactly 0, which the exponential says is impossible and A² would punish without limit). Such a gap is
  // given a uniform draw below F(resolution) (the randomised probability transform for data known only to a
  // bin), which is still exactly uniform under the plan: only more short gaps than the plan has fail the
  // test.
  const Nanos resolution(static_cast<std::int64_t>(resolution_ns));
  std::vector<double> floor(n);
  for (std::size_t k = 0; k < n; ++k) {
    const double from = plan.profile.cumulative(s[k].issued);
    gaps[k] = plan.profile.cumulative(s[k + 1].issued) - from;
    floor[k] = plan.profile.cumulative(s[k].issued + resolution) - from;
  }
  const auto spans = [&](std::size_t k) -> unsigned {
    return striped ? static_cast<unsigned>(global(k + 1) - global(k)) : 1u;
  };
  const double mean_gap =
      striped ? static_cast<double>(global(n) - global(0)) / static_cast<double>(n) : stretch;
  const double tau = mean_gap / 10;
  const auto cdf = [&](std::size_t k, double x) {
    return striped ? stats::erlang_cdf(spans(k), x) : -std::expm1(-x / stretch);
  };
  Rng rng(0x5e1fc4ec, worker);  // the draws are part of the test, so they are the same every time
  const auto transform = [&](std::size_t k, const auto& F) {
    return gaps[k] < floor[k] ? F(k, floor[k]) * rng.uniform01() : F(k, gaps[k]);
  };

  const std::vector<std::size_t> sample = spread_sample(n);
  std::vector<double> u(sample.size());
  bool unit_spans = true;
  double planned_bunched = 0;
  for (std::size_t i = 0; i < sample.size(); ++i) {
    const std::size_t k = sample[i];
    u[i] = transform(k, cdf);
    unit_spans = unit_spans && spans(k) == 1;
    planned_bunched += cdf(k, tau);
  }
  lane.test = "anderson-darling";
  const stats::FitTest fixed = stats::test_uniform(u, k_level);
  lane.tested = fixed.n;
  lane.statistic = fixed.statistic;
  lane.critical = fixed.critical;
  lane.passed = fixed.passed;
  if (unit_spans) {
    // One global arrival per gap: the lane is exponential, so also test its shape at its own rate.
    double sum = 0;
    for (std::size_t k : sample) sum += gaps[k];
    const double own_mean = sum / static_cast<double>(sample.size());
    if (own_mean > 0) {
      const auto own_cdf = [own_mean](std::size_t, double x) { return -std::expm1(-x / own_mean); };
      for (std::size_t i = 0; i < sample.size(); ++i) u[i] = transform(sample[i], own_cdf);
      const stats::FitTest own = stats::test_uniform_exponential_estimated(u, k_level);
      // Reported, not judged: the verdict asks whether the plan was kept, which the fully specified test
      // answers; a shape test at the achieved rate adds false alarms on a machine that merely stalls rarely.
      lane.own_rate_statistic = own.statistic;
      lane.own_rate_critical = own.critical;
    }
  }
  std::size_t bunched = 0;
  for (double g : gaps) bunched += g < tau ? 1 : 0;
  lane.bunched = static_cast<double>(bunched) / static_cast<double>(n);
  lane.planned_bunched = planned_bunched / static_cast<double>(sample.size());
  lane.bunch_below_ns = (ns(s.back().intended) - ns(s.front().intended)) / static_cast<double>(n) / 10;
}
}  // namespace

void SelfCheckTrace::reserve(double expected, bool arrivals_too) {
  // The Poisson count's spread is √expected; 4 of them and a few more cover it.
  const double want = expected + 4 * std::sqrt(std::max(0.0, expected)) + 16;
  const auto n = static_cast<std::size_t>(std::min(static_cast<double>(k_max_stamps), std::max(0.0, want)));
  if (arrivals_too) arrivals.reserve(n);
  latencies.reserve(n);
}

results::LaneArrivals check_lane(const RunPlan& plan, unsigned worker,
                                 const std::vector<ArrivalStamp>& stamps, const SelfCheckSettings& settings) {
  results::LaneArrivals lane;
  lane.worker = worker;
  lane.recorded = stamps.size();
  lane.test = plan.arrival == workload::ArrivalKind::poisson ? "anderson-darling" : "dispersion";
  lane.critical =
      plan.arrival == workload::ArrivalKind::poisson ? stats::critical_fully_specified(k_level) : 1.0;
  if (stamps.size() < 6) return lane;  // too few gaps to judge: passes untested (tested = 0)
  if (plan.arrival == workload::ArrivalKind::poisson) {
    check_poisson(plan, worker, stamps, settings.resolution_ns(), lane);
  } else {
    check_constant(stamps, settings, lane);
  }
  return lane;
}

namespace {
// Rank autocorrelation of response times already in send order, and the effective sample size it implies.
// An indicator (`indicator`: 0/1 values, its ranks an affine function of it) has the same without the ranks'
// sort, with batch means.
results::IndependenceCheck independence_of(const std::vector<double>& x, bool indicator = false) {
  const std::size_t lags = std::max<std::size_t>(1, x.size() / 4);
  const stats::Autocorrelation a =
      indicator ? stats::serial_autocorrelation(x, lags, true) : stats::rank_autocorrelation(x, lags);
  results::IndependenceCheck c;
  c.tested = true;
  c.samples = a.n;
  c.lag1 = a.rho.empty() ? 0 : a.rho.front();
  c.vanish_lag = a.vanish_lag;
  c.vanished = a.vanished;
  c.threshold = a.threshold;
  c.effective_fraction = a.effective_n / static_cast<double>(a.n);
  return c;
}

bool by_intended(const LatencyStamp& a, const LatencyStamp& b) {
  return a.intended < b.intended;
}
}  // namespace

void check_latencies(std::vector<LatencyStamp> stamps, const hdr::Histogram& response_time,
                     results::RunChecks& out) {
  static constexpr double k_percentiles[] = {50, 90, 99, 99.9};
  std::vector<double> x;
  if (stamps.size() >= k_min_latencies) {
    std::sort(stamps.begin(), stamps.end(), by_intended);
    x.resize(stamps.size());
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(stamps[i].response_ns);
    out.independence = independence_of(x);
  }
  std::vector<double> below(x.size());
  for (double p : k_percentiles) {
    if (!out.independence.tested) {
      out.response_time.push_back(results::percentile_interval(response_time, p, nullptr));
      continue;
    }
    // What an order-statistic interval's width depends on is the variance of the count of samples below the
    // quantile, so the correlation that matters is that of the indicator "below the p-th percentile" in send
    // order (the ranks' autocorrelation understates it in the tail: a p90 interval on the ranks' n_eff
    // covered the truth in 86 % of 200 simulated M/M/1 runs at ρ 0.5). The smaller of the two n_eff is used.
    const auto v = static_cast<double>(response_time.value_at_percentile(p));
    std::size_t ones = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      below[i] = x[i] <= v ? 1.0 : 0.0;
      ones += x[i] <= v ? 1 : 0;
    }
    results::IndependenceCheck at = out.independence;
    if (ones > 0 && ones < x.size()) {  // a constant indicator has no correlation to measure
      // (the indicator's n_eff with batch means: stats/autocorrelation.h, docs/statistics.md)
      at.effective_fraction =
          std::min(at.effective_fraction, independence_of(below, true).effective_fraction);
    }
    out.response_time.push_back(results::percentile_interval(response_time, p, &at));
  }
}

void check_windows(const std::vector<LatencyStamp>& stamps, Nanos warmup,
                   const std::vector<std::pair<double, double>>& windows, results::RunChecks& out) {
  if (windows.empty()) return;
  std::vector<LatencyStamp> sorted = stamps;
  std::sort(sorted.begin(), sorted.end(), by_intended);
  std::vector<double> x;
  for (const auto& [from_s, to_s] : windows) {
    results::WindowIndependence w{from_s, to_s, {}};
    const auto from = warmup + std::chrono::duration_cast<Nanos>(std::chrono::duration<double>(from_s));
    const auto to = warmup + std::chrono::duration_cast<Nanos>(std::chrono::duration<double>(to_s));
    const auto first = std::lower_bound(sorted.begin(), sorted.end(), LatencyStamp{from, 0}, by_intended);
    const auto last = std::lower_bound(first, sorted.end(), LatencyStamp{to, 0}, by_intended);
    x.clear();
    for (auto it = first; it != last; ++it) x.push_back(static_cast<double>(it->response_ns));
    if (x.size() >= k_min_latencies) w.independence = independence_of(x);
    out.windows.push_back(w);
  }
}

results::RunChecks self_check(const RunPlan& plan, const std::vector<std::unique_ptr<Worker>>& workers,
                              const hdr::Histogram& response_time, const SelfCheckSettings& settings) {
  results::RunChecks out;
  results::ArrivalCheck& a = out.arrivals;
  if (plan.model != Model::open && plan.model != Model::sessions) {
    a.why_not = "no arrival schedule: this model sends when responses return";
  } else if (plan.replay) {
    a.why_not = "a replayed trace: the arrivals are the trace's own times, not a process to test";
  } else {
    a.process = std::string(workload::to_string(plan.arrival));
    a.level = std::string(stats::to_string(k_level));
    a.lateness_bound_ns = settings.lateness_bound_ns;
    a.accepted = settings.accept_bunching;
    for (std::size_t w = 0; w < workers.size(); ++w) {
      const auto& stamps = workers[w]->report().trace.arrivals;
      if (stamps.size() < 6) continue;
      a.lanes.push_back(check_lane(plan, static_cast<unsigned>(w), stamps, settings));
    }
    a.tested = !a.lanes.empty();
    if (!a.tested) a.why_not = "fewer than 6 arrivals per worker";
  }
  // Workers' samples merge into send order up to the earliest point where a full trace stopped recording.
  Nanos cut = Nanos::max();
  std::size_t total = 0;
  for (const auto& w : workers) {
    const auto& l = w->report().trace.latencies;
    total += l.size();
    if (!l.empty() && l.size() == l.capacity() && l.size() >= k_max_stamps) {
      Nanos last{0};
      for (const auto& s : l) last = std::max(last, s.intended);
      cut = std::min(cut, last);
    }
  }
  std::vector<LatencyStamp> merged;
  merged.reserve(total);
  for (const auto& w : workers)
    for (const auto& s : w->report().trace.latencies)
      if (s.intended <= cut) merged.push_back(s);
  check_windows(merged, plan.warmup, plan.check_windows, out);
  check_latencies(std::move(merged), response_time, out);
  return out;
}

}  // namespace openloop::engine
