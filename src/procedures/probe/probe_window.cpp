// Span statistics, the recovery test of one window, and the baseline's steadiness.
#include "procedures/probe/probe_window.h"
#include "procedures/probe/probe_format.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include <fmt/format.h>

#include "core/units.h"
#include "hdr/codec.h"
#include "report/text_format.h"

namespace openloop::procedures {
namespace {

constexpr double k_eps_s = 1e-6;

// Attempts behind an interval's requests; results written before attempts were counted hold 0: one per
// request sent.
double attempts_of(const results::Counters& c) {
  return static_cast<double>(c.attempts == 0 ? c.sent : c.attempts);
}

double ratio(double part, double whole) {
  return whole > 0 ? part / whole : 0.0;
}

using report::format_latency;

Check make_check(std::string name, double measured, double bound, bool at_least, std::string text) {
  const bool met = at_least ? measured >= bound : measured <= bound;
  return Check{std::move(name), measured, bound, met, std::move(text)};
}

// Coefficient of variation of per-interval goodput (ok per second).
double goodput_cv(std::span<const Sample> s) {
  if (s.size() < 2) return 0;
  double sum = 0, sq = 0;
  for (const Sample& x : s) {
    const double g = ratio(static_cast<double>(x.counters.ok), x.length_s);
    sum += g;
    sq += g * g;
  }
  const double n = static_cast<double>(s.size());
  const double mean = sum / n;
  const double var = std::max(0.0, (sq - n * mean * mean) / (n - 1));
  return mean > 0 ? std::sqrt(var) / mean : 0;
}

}  // namespace

Result<std::vector<Sample>> samples_of(const results::RunResults& r, std::size_t from) {
  std::vector<Sample> out;
  for (std::size_t i = from; i < r.intervals.size(); ++i) {
    const results::IntervalResult& in = r.intervals[i];
    Sample s;
    s.start_s = in.start_s;
    s.length_s = in.length_s;
    s.counters = in.counters;
    s.attempts = attempts_of(in.counters);
    const std::pair<const results::EncodedHistogram*, hdr::Histogram*> hists[] = {
        {&in.response_time_hist, &s.response_time}, {&in.send_lateness_hist, &s.send_lateness}};
    for (const auto& [text, into] : hists) {
      if (text->empty()) continue;
      auto h = hdr::from_compressed_base64(text->text());
      if (!h) return runtime_error(fmt::format("interval {}: latency histogram: {}", i, h.error().message));
      into->add(*h);
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::span<const Sample> span_of(const std::vector<Sample>& all, Nanos start, Nanos end) {
  const double a = to_seconds(start) - k_eps_s, b = to_seconds(end) + k_eps_s;
  std::size_t first = all.size(), last = all.size();
  for (std::size_t i = 0; i < all.size(); ++i) {
    const bool inside = all[i].start_s >= a && all[i].start_s + all[i].length_s <= b;
    if (inside && first == all.size()) first = i;
    if (inside) last = i + 1;
  }
  if (first == all.size()) return {};
  return std::span<const Sample>(all).subspan(first, last - first);
}

Tail estimable_tail(std::uint64_t n) {
  if (n >= 1000) return {"p99", &Stats::p99_ns};
  if (n >= 100) return {"p90", &Stats::p90_ns};
  return {"p50", &Stats::p50_ns};
}

Stats stats_of(std::span<const Sample> samples) {
  Stats st;
  results::Counters c;
  hdr::Histogram rt = results::make_latency_histogram(), late = results::make_latency_histogram();
  double attempts = 0;
  for (const Sample& s : samples) {
    st.seconds += s.length_s;
    c.add(s.counters);
    rt.add(s.response_time);
    late.add(s.send_lateness);
    attempts += s.attempts;
  }
  if (late.total_count() > 0) st.lateness_p99_ns = late.value_at_percentile(99);
  const auto intended = static_cast<double>(c.intended);
  st.intended = c.intended;
  st.offered = ratio(intended, st.seconds);
  st.throughput = ratio(static_cast<double>(c.completed), st.seconds);
  st.goodput = ratio(static_cast<double>(c.ok), st.seconds);
  if (rt.total_count() > 0) {
    st.p50_ns = rt.value_at_percentile(50);
    st.p90_ns = rt.value_at_percentile(90);
    st.p99_ns = rt.value_at_percentile(99);
    st.max_ns = rt.max();
    st.mean_ns = rt.mean();
  }
  st.in_flight = st.offered * st.mean_ns / 1e9;
  st.timeout_fraction = ratio(static_cast<double>(c.timeouts), intended);
  st.not_ok_fraction = ratio(intended - static_cast<double>(c.ok), intended);
  st.dropped_fraction = ratio(static_cast<double>(c.dropped), intended);
  st.sent_fraction = c.intended > 0 ? ratio(static_cast<double>(c.sent), intended) : 1.0;
  st.amplification = c.sent > 0 ? attempts / static_cast<double>(c.sent) : 1.0;
  return st;
}

nlohmann::json Stats::to_json() const {
  return {{"seconds", seconds},
          {"intended", intended},
          {"offered_rps", offered},
          {"throughput_rps", throughput},
          {"goodput_rps", goodput},
          {"p50_ms", static_cast<double>(p50_ns) / 1e6},
          {"p99_ms", static_cast<double>(p99_ns) / 1e6},
          {"max_ms", static_cast<double>(max_ns) / 1e6},
          {"mean_ms", mean_ns / 1e6},
          {"in_flight", in_flight},
          {"timeout_fraction", timeout_fraction},
          {"not_ok_fraction", not_ok_fraction},
          {"dropped_fraction", dropped_fraction},
          {"sent_fraction", sent_fraction},
          {"amplification", amplification},
          {"send_lateness_p99_ms", static_cast<double>(lateness_p99_ns) / 1e6}};
}

nlohmann::json WindowJudgement::to_json() const {
  nlohmann::json checks_json = nlohmann::json::array();
  for (const Check& c : checks) {
    checks_json.push_back(
        {{"name", c.name}, {"measured", c.measured}, {"bound", c.bound}, {"met", c.met}, {"text", c.text}});
  }
  return {{"start_s", start_s}, {"end_s", end_s},           {"rate_rps", rate},
          {"met", met},         {"stats", stats.to_json()}, {"checks", checks_json}};
}

WindowJudgement judge_window(std::span<const Sample> window, double rate, const Stats& baseline,
                             double base_rate, const RecoveryCriteria& c) {
  WindowJudgement w;
  w.rate = rate;
  if (!window.empty()) {
    w.start_s = window.front().start_s;
    w.end_s = window.back().start_s + window.back().length_s;
  }
  w.stats = stats_of(window);
  const Stats& s = w.stats;
  const double goodput_bound = c.min_goodput_fraction * baseline.goodput * ratio(rate, base_rate);
  w.checks.push_back(make_check("goodput", s.goodput, goodput_bound, true,
                                fmt::format("goodput {} ≥ {}", rate_of(s.goodput), rate_of(goodput_bound))));
  const double allowance_ns = static_cast<double>(c.lateness_allowance.count());
  const Tail tail = estimable_tail(s.intended);
  const auto base_tail = static_cast<double>(baseline.*tail.value);
  const double tail_bound = std::max(
      0.0, std::max(c.max_p99_ratio * base_tail, base_tail + static_cast<double>(c.p99_slack.count())) +
               allowance_ns);
  w.checks.push_back(make_check(tail.name, static_cast<double>(s.*tail.value), tail_bound, false,
                                fmt::format("{} {} ≤ {}", tail.name, format_latency(s.*tail.value),
                                            format_latency(static_cast<std::int64_t>(tail_bound)))));
  const double flight_bound = std::max(
      0.0, std::max(c.max_in_flight_ratio * baseline.in_flight, baseline.in_flight + c.in_flight_slack) +
               s.offered * allowance_ns / 1e9);
  w.checks.push_back(make_check("in flight", s.in_flight, flight_bound, false,
                                fmt::format("in flight {:.1f} ≤ {:.1f}", s.in_flight, flight_bound)));
  const double amp_bound = c.max_amplification_ratio * baseline.amplification;
  w.checks.push_back(make_check("amplification", s.amplification, amp_bound, false,
                                fmt::format("amplification {:.2f} ≤ {:.2f}", s.amplification, amp_bound)));
  w.met =
      s.intended > 0 && std::all_of(w.checks.begin(), w.checks.end(), [](const Check& k) { return k.met; });
  return w;
}

BaselineJudgement judge_baseline(std::span<const Sample> baseline) {
  BaselineJudgement b;
  b.stats = stats_of(baseline);
  const Stats& s = b.stats;
  if (s.intended == 0) {
    b.problems.push_back("the baseline has no measured requests");
    return b;
  }
  if (s.goodput < 0.95 * s.offered) {
    b.problems.push_back(
        fmt::format("the base load is not served: goodput {} is under 95% of offered {} ({:.1f}% not "
                    "ok)",
                    rate_of(s.goodput), rate_of(s.offered), 100 * s.not_ok_fraction));
  }
  const double per_interval = static_cast<double>(s.intended) / static_cast<double>(baseline.size());
  const double cv_bound = std::max(0.10, 3.0 / std::sqrt(std::max(1.0, per_interval)));
  if (const double cv = goodput_cv(baseline); cv > cv_bound) {
    b.problems.push_back(
        fmt::format("goodput varied {:.0f}% second to second (bound {:.0f}%)", 100 * cv, 100 * cv_bound));
  }
  const std::size_t half = baseline.size() / 2;
  const Stats first = stats_of(baseline.first(half)), second = stats_of(baseline.subspan(half));
  // Two halves of Poisson counts differ by √(2/n) relatively at one standard deviation: allow three.
  const double halves_bound =
      std::max(0.10, 3.0 * std::sqrt(2.0 / std::max(1.0, static_cast<double>(first.intended))));
  if (std::fabs(second.goodput - first.goodput) > halves_bound * std::max(first.goodput, 1e-9)) {
    b.problems.push_back(
        fmt::format("goodput moved from {} in the first half to {} in the second (bound ±{:.0f}%)",
                    rate_of(first.goodput), rate_of(second.goodput), 100 * halves_bound));
  }
  // The highest percentile both halves can estimate: at least 10 requests above it in each, so one scheduler
  // hiccup among 30 requests is not "the p99 doubled".
  const Tail tail = estimable_tail(std::min(first.intended, second.intended));
  const char* name = tail.name;
  const std::int64_t p1 = first.*tail.value, p2 = second.*tail.value;
  if (static_cast<double>(p2) > 2.0 * static_cast<double>(p1) + 1e6) {
    b.problems.push_back(fmt::format("{} rose from {} in the first half to {} in the second", name,
                                     format_latency(p1), format_latency(p2)));
  }
  if (second.in_flight > 2.0 * first.in_flight + 1.0) {
    b.problems.push_back(
        fmt::format("in flight grew from {:.1f} to {:.1f}: a backlog was building at the base load",
                    first.in_flight, second.in_flight));
  }
  b.steady = b.problems.empty();
  return b;
}

}  // namespace openloop::procedures
