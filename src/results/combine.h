// Combining the results of scenarios that ran together into one run: counts and histograms added exactly,
// intervals aligned by each scenario's start offset.
#pragma once

#include <string>
#include <vector>

#include "results/run_results.h"

namespace openloop::results {

/// One scenario's results and where its measured period began, relative to the common start of all scenarios.
struct ScenarioResults {
  std::string name;
  double offset_s = 0;  ///< start offset + warm-up of this scenario
  RunResults results;
};

/// The whole run: intervals aligned by absolute time (scenario interval i lands in combined interval
/// round((offset_s − min offset) / length) + i), counters, flows and histograms added, generator stats
/// summed, the verdict judged again over the combined run plus every scenario's own reasons (prefixed with
/// its name). `model` is the scenarios' model when they share one, else "mixed". Per-request breakdowns are
/// kept per scenario only. Preconditions: at least one scenario; equal interval lengths.
RunResults combine_scenarios(const std::vector<ScenarioResults>& scenarios);

}  // namespace openloop::results
