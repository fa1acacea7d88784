// Checks that belong to a workload model: Little's law for closed runs, the pacing shortfall for paced runs.
#pragma once

#include <optional>
#include <vector>

#include "results/run_results.h"

namespace openloop::results {

/// Little's law for a closed run: N = X·(R + Z), with X the rate of resolved requests, R their mean response
/// time and Z the mean think time. A large error means users were not all busy (starting late, failing fast).
struct LittlesLaw {
  double users = 0;            ///< N, as configured
  double throughput_rps = 0;   ///< X: requests resolved (completed, timed out) per second
  double response_s = 0;       ///< R: mean response time
  double think_s = 0;          ///< Z: mean think time
  double predicted_users = 0;  ///< X·(R + Z)
  double error_fraction = 0;   ///< |predicted − N| / N
};

/// For closed runs with samples; std::nullopt otherwise. `think_s` is the plan's mean think time.
std::optional<LittlesLaw> littles_law(const RunResults& r, double think_s);

/// Pacing: the intervals (their start_s) whose iterations started fell short of the configured rate by more
/// than `tolerance` (fraction) and one iteration. Empty when the model is not pacing or nothing fell short.
std::vector<double> pacing_shortfall(const RunResults& r, double tolerance = 0.05);

}  // namespace openloop::results
