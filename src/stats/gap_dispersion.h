// How far achieved gaps between events depart from planned ones: the spread of the differences and the share
// of gaps bunched far below plan.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace openloop::stats {

/// Achieved against planned gaps of one sequence of events (same unit throughout, e.g. nanoseconds).
struct GapDispersion {
  std::size_t n = 0;           ///< gaps compared
  double mean_planned = 0;     ///< mean planned gap
  double sd_deviation = 0;     ///< standard deviation of (achieved − planned), over the gaps
  /// 1.4826 × the median absolute deviation of (achieved − planned) from its median: the standard deviation
  /// for normal deviations, unmoved by a few outliers (a rare stall that the lateness check already judges).
  double robust_sd_deviation = 0;
  double max_deviation = 0;    ///< largest |achieved − planned|
  double bunched = 0;          ///< share of achieved gaps below `bunch_below` (0..1)
  double planned_bunched = 0;  ///< share of planned gaps below it
};

/// Compares `achieved[i]` with `planned[i]` (equal lengths; extra elements of the longer one are ignored).
/// Allocates (the deviations, for their median).
/// `bunch_below` is the gap under which two events count as bunched (e.g. a tenth of the mean planned gap),
/// provided the gap is also at least `min_deficit` shorter than planned (0: any deficit): deficits below the
/// timing resolution one judges by are not bunching.
GapDispersion gap_dispersion(std::span<const double> achieved, std::span<const double> planned,
                             double bunch_below, double min_deficit = 0);

}  // namespace openloop::stats
