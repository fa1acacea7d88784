// Gap dispersion: one pass, Welford's update for the deviations' variance.
#include "stats/gap_dispersion.h"

#include <algorithm>
#include <cmath>

namespace openloop::stats {

GapDispersion gap_dispersion(std::span<const double> achieved, std::span<const double> planned,
                             double bunch_below, double min_deficit) {
  GapDispersion g;
  g.n = std::min(achieved.size(), planned.size());
  if (g.n == 0) return g;
  double mean = 0, m2 = 0, planned_sum = 0;
  std::vector<double> deviations(g.n);
  std::size_t bunched = 0, planned_bunched = 0;
  for (std::size_t i = 0; i < g.n; ++i) {
    const double d = achieved[i] - planned[i];
    deviations[i] = d;
    const double delta = d - mean;
    mean += delta / static_cast<double>(i + 1);
    m2 += delta * (d - mean);
    g.max_deviation = std::max(g.max_deviation, std::abs(d));
    planned_sum += planned[i];
    if (achieved[i] < bunch_below && planned[i] - achieved[i] >= min_deficit) ++bunched;
    if (planned[i] < bunch_below) ++planned_bunched;
  }
  const double n = static_cast<double>(g.n);
  g.mean_planned = planned_sum / n;
  g.sd_deviation = std::sqrt(m2 / n);
  g.bunched = static_cast<double>(bunched) / n;
  g.planned_bunched = static_cast<double>(planned_bunched) / n;
  const auto median = [](std::vector<double>& v) {
    const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
  };
  const double centre = median(deviations);
  for (double& d : deviations) d = std::abs(d - centre);
  g.robust_sd_deviation = 1.4826 * median(deviations);
  return g;
}

}  // namespace openloop::stats
