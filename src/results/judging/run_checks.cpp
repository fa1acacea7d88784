// The self-checks' judgements and sentences: which lane failed and how, the verdict's reasons, the summary
// line.
#include "results/judging/run_checks.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/units.h"
#include "stats/quantile_ci.h"

namespace openloop::results {

namespace {
std::string percent(double share) {
  const double p = share * 100;
  return p >= 10 || p == 0 ? fmt::format("{:.0f} %", p) : fmt::format("{:.2g} %", p);
}
std::string thousands(std::uint64_t v) {
  const std::string digits = std::to_string(v);
  std::string s;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) s += ',';
    s += digits[i];
  }
  return s;
}
std::string number(double v) {
  return fmt::format("{:.3g}", v);
}

// How a lane's statistic compares with its critical value, in the test's own terms.
std::string comparison(const LaneArrivals& l, const std::string& level) {
  if (l.test == "dispersion")
    return fmt::format("gap deviation {} {} {} lateness bounds", number(l.statistic),
                       l.statistic <= l.critical ? "≤" : ">", number(l.critical));
  std::string s = fmt::format("Anderson-Darling A² {} {} {} at {}", number(l.statistic), l.statistic <= l.critical ? "≤" : ">",
                              number(l.critical), level);
  if (l.own_rate_statistic && l.own_rate_critical)
    s += fmt::format("; at its own rate A² {} {} {}", number(*l.own_rate_statistic),
                     *l.own_rate_statistic <= *l.own_rate_critical ? "≤" : ">", number(*l.own_rate_critical));
  return s;
}
}  // namespace

const IndependenceCheck* RunChecks::window(double from_s, double to_s) const {
  for (const auto& w : windows)
    if (std::abs(w.from_s - from_s) <= 1e-3 && std::abs(w.to_s - to_s) <= 1e-3) return &w.independence;
  return nullptr;
}

PercentileInterval percentile_interval(const hdr::Histogram& h, double p, const IndependenceCheck* check) {
  const double n = static_cast<double>(h.total_count());
  const double fraction = check != nullptr && check->tested ? check->effective_fraction : 1.0;
  const stats::QuantileEstimate wide = stats::estimate_quantile(h, p, 1.96, n * fraction);
  const stats::QuantileEstimate naive = stats::estimate_quantile(h, p);
  return {p, wide.value, wide.low, wide.high, naive.low, naive.high, wide.effective_count};
}

std::string correlation_flag(const IndependenceCheck& i) {
  if (!i.correlated()) return {};
  const auto effective =
      static_cast<std::uint64_t>(std::llround(i.effective_fraction * static_cast<double>(i.samples)));
  return fmt::format("samples correlated at lag {}{}, effective n {} of {}; interval widened ×{:.2g}",
                     i.vanished ? "" : "> ", i.vanished ? i.vanish_lag : i.vanish_lag - 1,
                     thousands(effective), thousands(i.samples), i.widening());
}

bool ArrivalCheck::passed() const {
  return std::all_of(lanes.begin(), lanes.end(), [](const LaneArrivals& l) { return l.passed; });
}

std::string ArrivalCheck::failure() const {
  const LaneArrivals* worst = nullptr;
  for (const auto& l : lanes) {
    if (l.passed) continue;
    if (worst == nullptr || l.statistic / l.critical > worst->statistic / worst->critical) worst = &l;
  }
  if (worst == nullptr) return {};
  const std::string under =
      format_duration(Nanos(static_cast<std::int64_t>(std::llround(worst->bunch_below_ns))));
  std::string what;
  if (worst->bunched > worst->planned_bunched + 0.01) {
    what = fmt::format("sends bunched: {} of gaps under {} where the plan has {}", percent(worst->bunched),
                       under, percent(worst->planned_bunched));
  } else if (worst->test == "dispersion") {
    what =
        fmt::format("sends uneven: gaps deviate from the plan by {} (sd) where the lateness bound is {}",
                    format_duration(Nanos(static_cast<std::int64_t>(worst->statistic * lateness_bound_ns))),
                    format_duration(Nanos(static_cast<std::int64_t>(lateness_bound_ns))));
  } else {
    what =
        fmt::format("sends do not follow the planned {} process ({} of gaps under {} where the plan has {})",
                    process, percent(worst->bunched), under, percent(worst->planned_bunched));
  }
  // The test's own comparison, unless it passed and only the bunching failed ("gap deviation 0.176 ≤ 1"
  // beside a failure reads as a contradiction).
  const bool statistic_failed = worst->statistic > worst->critical;
  std::string s = fmt::format("arrival process: {}{}{}",
                              lanes.size() > 1 ? fmt::format("worker {}: ", worst->worker) : "", what,
                              statistic_failed ? " (" + comparison(*worst, level) + ")" : "");
  const auto failed =
      std::count_if(lanes.begin(), lanes.end(), [](const LaneArrivals& l) { return !l.passed; });
  if (failed > 1) s += fmt::format("; {} of {} workers failed", failed, lanes.size());
  return s;
}

double IndependenceCheck::widening() const {
  return effective_fraction > 0 ? std::sqrt(1.0 / effective_fraction) : 1.0;
}

std::optional<double> PercentileInterval::relative_half_width() const {
  if (!low || !high || value <= 0) return std::nullopt;
  return static_cast<double>(std::max(*high - value, value - *low)) / static_cast<double>(value);
}

void add_check_reasons(const RunChecks& c, std::vector<std::string>& reasons) {
  if (c.arrivals.tested && !c.arrivals.passed() && !c.arrivals.accepted) {
    // A worker that woke late sends every arrival due meanwhile at once: late sends come out bunched, so
    // the lateness reason already given is the cause to fix.
    // Arrivals queued for a free stream or connection go out as one frees, likewise bunched.
    const bool late = std::any_of(reasons.begin(), reasons.end(),
                                  [](const std::string& r) { return r.starts_with("send lateness"); });
    const bool queued = std::any_of(reasons.begin(), reasons.end(), [](const std::string& r) {
      return r.find("waited for a free stream/connection") != std::string::npos;
    });
    reasons.push_back(c.arrivals.failure() +
                      (late     ? "; most likely the late sends above, sent together as the worker caught up"
                       : queued ? "; most likely the queued sends above, sent as streams or connections freed"
                                : "; --accept-bunching accepts it"));
  }
}

std::string checks_line(const RunChecks& c) {
  if (c.empty()) return {};
  std::vector<std::string> parts;
  const ArrivalCheck& a = c.arrivals;
  if (a.tested) {
    // The lane furthest from its critical value stands for all.
    const LaneArrivals* worst = &a.lanes.front();
    for (const auto& l : a.lanes)
      if (l.statistic / l.critical > worst->statistic / worst->critical) worst = &l;
    const bool ok = a.passed();
    const std::string stat = worst->test == "dispersion" ? "gap sd/bound" : "A²";
    parts.push_back(fmt::format("arrivals {} ({} {} {} {}{})", ok ? "✓" : "✗", stat, number(worst->statistic),
                                worst->statistic <= worst->critical ? "≤" : ">", number(worst->critical),
                                !ok && a.accepted ? "; accepted" : ""));
  } else if (!a.why_not.empty()) {
    parts.push_back(fmt::format("arrivals not tested ({})", a.why_not));
  }
  const IndependenceCheck& i = c.independence;
  if (i.tested) {
    const auto effective =
        static_cast<std::uint64_t>(std::llround(i.effective_fraction * static_cast<double>(i.samples)));
    if (i.correlated()) {
      parts.push_back(fmt::format(
          "independence ✗ (samples correlated at lag {}{}, effective n {} of {}; intervals widened ×{:.2g})",
          i.vanished ? "" : "> ", i.vanished ? i.vanish_lag : i.vanish_lag - 1, thousands(effective),
          thousands(i.samples), i.widening()));
    } else {
      parts.push_back(fmt::format("independence ✓ (lag 1 ρ {:.2f}, effective n {} of {})", i.lag1,
                                  thousands(effective), thousands(i.samples)));
    }
  }
  for (const auto& p : c.response_time) {
    if (p.percentile != 99) continue;
    const auto w = p.relative_half_width();
    if (w) {
      parts.push_back(fmt::format("p99 ± {:.1f} %", *w * 100));
      continue;
    }
    // Unbounded: say how much longer a run would bound it (its effective share of samples held as it grows).
    const auto n = i.tested ? static_cast<std::int64_t>(i.samples) : std::llround(p.effective_count);
    const double needed = stats::effective_samples_to_bound(p.percentile, 1.96, n);
    const double longer = p.effective_count > 0 ? needed / p.effective_count : 0;
    parts.push_back(longer > 1
                        ? fmt::format("p99 unbounded (effective n {} of {}; a run about {}× as long would "
                                      "bound it)",
                                      thousands(static_cast<std::uint64_t>(std::llround(p.effective_count))),
                                      thousands(static_cast<std::uint64_t>(n)),
                                      longer < 10 ? fmt::format("{:.1f}", std::ceil(longer * 10) / 10)
                                                  : fmt::format("{:.0f}", std::ceil(longer)))
                        : std::string("p99 unbounded (too few samples)"));
  }
  std::string line = parts.empty() ? "" : "checks: ";
  for (std::size_t k = 0; k < parts.size(); ++k) line += (k > 0 ? ", " : "") + parts[k];
  // --until: one line per target, after the checks they rest on.
  for (const auto& u : c.until) line += (line.empty() ? "until: " : "\nuntil: ") + u.sentence();
  return line;
}

}  // namespace openloop::results
