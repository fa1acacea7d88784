// Little's law and pacing shortfall, computed from the interval series and histograms.
#include "results/judging/model_checks.h"

#include <cmath>

namespace openloop::results {

std::optional<LittlesLaw> littles_law(const RunResults& r, double think_s) {
  if (r.info.model != Model::closed || r.measured_s <= 0 || r.response_time.total_count() == 0 ||
      r.info.users == 0) {
    return std::nullopt;
  }
  LittlesLaw l;
  l.users = static_cast<double>(r.info.users);
  l.throughput_rps = static_cast<double>(r.response_time.total_count()) / r.measured_s;
  l.response_s = r.response_time.mean() / 1e9;
  l.think_s = think_s;
  l.predicted_users = l.throughput_rps * (l.response_s + l.think_s);
  l.error_fraction = std::fabs(l.predicted_users - l.users) / l.users;
  return l;
}

std::vector<double> pacing_shortfall(const RunResults& r, double tolerance) {
  std::vector<double> out;
  const double configured = r.info.configured_iterations_per_s;
  if (r.info.model != Model::pacing || configured <= 0) return out;
  for (const auto& i : r.intervals) {
    if (i.length_s < 0.999) continue;  // a partial last interval cannot be compared
    const double expected = configured * i.length_s;
    if (static_cast<double>(i.flows.iterations) < expected * (1 - tolerance) - 1) out.push_back(i.start_s);
  }
  return out;
}

}  // namespace openloop::results
