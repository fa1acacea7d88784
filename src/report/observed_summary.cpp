// --observe in the terminal summary: a line per source, mean and max over the measured intervals.
#include "report/observed_summary.h"

#include <cmath>

#include <fmt/format.h>

namespace openloop::report {
namespace {

using results::SignalRole;

std::string number(double v, const std::string& unit) {
  if (std::isnan(v)) return "-";
  if (unit == "bytes") return fmt::format("{:.1f}MiB", v / (1 << 20));
  if (unit == "/s") return fmt::format("{:.3g}/s", v);
  if (unit == "s/s") return fmt::format("{:.3g}s/s", v);
  return fmt::format("{:.3g}", v);
}

bool shown(const results::ObservedSignal& s, const results::ObservedSummary& sum) {
  if (results::is_self_source(s.source)) {
    return s.name == "cpu" || s.name == "cpu_busiest_thread" || s.name == "runq_wait" || s.name == "fds" ||
           s.name == "ports_in_use";
  }
  if (s.role == SignalRole::errors) return sum.max > 0;
  return s.role != SignalRole::other;
}

}  // namespace

std::string render_observed(const results::RunResults& r) {
  const auto& o = r.observed;
  if (o.empty()) return "";
  std::vector<std::vector<double>> values;
  for (const auto& i : r.intervals) values.push_back(i.observed);
  std::string out = fmt::format(
      "\nobserved (mean / max of the measured intervals; sampler: {} samples, CPU {:.2f}% of a core)\n",
      o.sampler.samples, 100 * o.sampler.cpu_share());
  for (const auto& source : o.sources) {
    std::string line;
    double ports_available = NAN;
    for (std::size_t c = 0; c < o.signals.size(); ++c) {
      const auto& s = o.signals[c];
      if (s.source != source) continue;
      const auto sum = results::summarize_column(values, c);
      if (s.name == "ports_available") ports_available = sum.max;
      if (sum.intervals == 0 || !shown(s, sum)) continue;
      line += fmt::format("   {} {} / {}", s.label, number(sum.mean, s.unit), number(sum.max, s.unit));
    }
    if (results::is_self_source(source) && !std::isnan(ports_available))
      line += fmt::format(" (of {:.0f} ephemeral ports)", ports_available);
    if (line.empty()) line = "   (no values: see the warnings)";
    const std::string who = source == "self"                  ? std::string("generator (self)")
                            : results::is_self_source(source) ? "generator (" + source + ")"
                                                              : source;
    out += fmt::format("  {}{}\n", who, line);
  }
  if (!o.merged.empty()) out += fmt::format("  ({})\n", o.merged);
  return out;
}

std::string render_observed_runs(const std::vector<const results::RunResults*>& runs) {
  if (runs.size() == 1) return render_observed(*runs.front());
  std::string out;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const std::string one = render_observed(*runs[k]);
    if (!one.empty()) out += fmt::format("\nrun {} of {}:{}", k + 1, runs.size(), one);
  }
  return out;
}

}  // namespace openloop::report
