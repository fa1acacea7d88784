// Combining the results of scenarios that ran together into one run: counts and histograms added exactly,
// intervals aligned by each scenario's start offset.
#pragma once

#include <string>
#include <vector>

#include "results/run_results.h"

namespace openloop::results {

/// The whole run: intervals aligned by absolute time (scenario interval i lands in combined interval
/// round((offset_s − min offset) / length) + i), counters, flows and histograms added, run metadata added
/// side by side (RunResults::add_metadata: generator stats, error examples, warnings prefixed with the
/// scenario's name), the verdict judged again over the combined run plus every scenario's own reasons
/// (prefixed with its name). `model` is the scenarios' model when they share one, else "mixed". The
/// per-request breakdown is combined by request name (a request sent by several scenarios adds up; totals,
/// histograms and every interval's counts), kept when the scenarios name two requests or more. The scenarios
/// themselves are not copied into the result's `scenarios`. Preconditions: at least one scenario; equal
/// interval lengths.
RunResults combine_scenarios(const std::vector<ScenarioResults>& scenarios);

}  // namespace openloop::results
