// --until: parsing the targets, judging them on a histogram, stopping the run when they are met.
#include "results/judging/until.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "results/run_results.h"
#include "stats/quantile_ci.h"

namespace openloop::results {
namespace {

constexpr double k_z = 1.96;  // 95 % intervals, as the run summary's

bool parse_number(std::string_view s, double& out) {
  if (s.empty()) return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size() && std::isfinite(out);
}

// "p99 ±5 %" as people read it.
std::string label(const UntilTarget& t) {
  return fmt::format("p{:g} ±{:g} %", t.percentile, t.relative * 100);
}

// Kept by the series as intervals are added: a long run's parked intervals are not read back each time.
double measured_of(const RunResults& r) {
  return r.intervals.total_length_s();
}

}  // namespace

Result<UntilTarget> parse_until(std::string_view text) {
  const auto bad = [text](std::string_view why) {
    return usage_error(fmt::format("--until: \"{}\" {} (expected PERCENTILE:±PERCENT, e.g. p99:±5% or "
                                   "p99.9:±10%)",
                                   text, why));
  };
  const std::size_t colon = text.find(':');
  if (colon == std::string_view::npos) return bad("has no ':'");
  std::string_view pct = text.substr(0, colon), width = text.substr(colon + 1);
  if (pct.empty() || (pct.front() != 'p' && pct.front() != 'P')) return bad("does not start with p");
  UntilTarget t;
  t.text = std::string(text);
  if (!parse_number(pct.substr(1), t.percentile) || !(t.percentile > 0 && t.percentile < 100))
    return bad("names no percentile between 0 and 100 exclusive");
  for (const std::string_view prefix : {std::string_view("±"), std::string_view("+-"), std::string_view("+/-")}) {
    if (width.substr(0, prefix.size()) == prefix) {
      width.remove_prefix(prefix.size());
      break;
    }
  }
  if (width.empty() || width.back() != '%') return bad("gives no width in % after the ':'");
  width.remove_suffix(1);
  double percent = 0;
  if (!parse_number(width, percent) || !(percent > 0 && percent < 100))
    return bad("gives no width above 0 % and below 100 %");
  t.relative = percent / 100;
  return t;
}

std::string UntilOutcome::sentence() const {
  if (met) return fmt::format("{}: met (±{:.2g} %, {} samples)", label(target), *achieved * 100, samples);
  const std::string reached =
      achieved ? fmt::format("±{:.2g} % on {} samples", *achieved * 100, samples)
               : fmt::format("a side of the interval still open on {} samples", samples);
  if (!std::isfinite(more_seconds))
    return fmt::format("not enough samples for {}: {}; no rate to extrapolate from", label(target), reached);
  return fmt::format("not enough samples for {}: {}; would need about {:.0f} more seconds at this rate",
                     label(target), reached, std::ceil(more_seconds));
}

std::vector<UntilOutcome> judge_until(const std::vector<UntilTarget>& targets, const hdr::Histogram& response_time,
                                      double measured_s, double effective_fraction) {
  std::vector<UntilOutcome> out;
  const double n = static_cast<double>(response_time.total_count());
  const double fraction = std::clamp(effective_fraction, 1e-9, 1.0);
  for (const UntilTarget& t : targets) {
    UntilOutcome o;
    o.target = t;
    o.samples = response_time.total_count();
    const stats::QuantileEstimate q = stats::estimate_quantile(response_time, t.percentile, k_z, n * fraction);
    o.achieved = q.relative_half_width();
    o.met = o.achieved && *o.achieved <= t.relative;
    if (!o.met) {
      // The half-width shrinks as 1/√n at a fixed rate: n·(w/target)² samples would do. With a side of the
      // interval missing, first enough samples for that rank to exist (n_eff·(1−p) ≥ 4·z²·p, i.e. the upper
      // rank a couple of spreads inside n), then that guess doubled: a floor, said as "about".
      const double p = t.percentile / 100;
      double needed = 0;
      if (o.achieved) {
        needed = n * std::pow(*o.achieved / t.relative, 2);
      } else {
        needed = 2 * std::max(n, 4 * k_z * k_z * p / (1 - p) / fraction);
      }
      const double rate = measured_s > 0 ? n / measured_s : 0;
      o.more_seconds = rate > 0 ? std::max(1.0, (needed - n) / rate) : std::numeric_limits<double>::infinity();
    }
    out.push_back(std::move(o));
  }
  return out;
}

UntilWatcher::UntilWatcher(std::vector<UntilTarget> targets, double min_measured_s)
    : m_targets(std::move(targets)), m_min_measured_s(min_measured_s) {}

bool UntilWatcher::satisfied(const RunResults& so_far) const {
  const double measured = measured_of(so_far);
  // A little slack: interval lengths are floating-point sums.
  if (measured + 1e-6 < m_min_measured_s) return false;
  const auto outcomes = judge_until(m_targets, so_far.response_time, measured);
  return std::all_of(outcomes.begin(), outcomes.end(), [](const UntilOutcome& o) { return o.met; });
}

bool UntilWatcher::stop_if_done(const RunResults& so_far, std::atomic<int>& stop) {
  if (m_stopped || !satisfied(so_far)) return false;
  int expected = 0;
  m_stopped = stop.compare_exchange_strong(expected, 1);
  return m_stopped;
}

void UntilWatcher::mark(RunResults& r, int stop_value) const {
  if (m_stopped && stop_value <= 1) r.interrupted = false;
  const double fraction = r.checks.independence.tested ? r.checks.independence.effective_fraction : 1.0;
  r.checks.until = judge_until(m_targets, r.response_time, r.measured_s, fraction);
}

}  // namespace openloop::results
