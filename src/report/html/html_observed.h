// --observe in the HTML report: one chart per observed source, on the same time axis as p99 and throughput.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "results/run_results.h"

namespace openloop::report {

/// The chart data: [{source, signals: [{name, label, unit, role, values: [per interval, null when none]}]}],
/// the utilization, saturation and error signals of each source (the generator's: its USE line); null
/// without --observe.
nlohmann::json observed_chart_data(const results::RunResults& r);
/// The panels: a heading, one chart element per source ("chart-observed-K") and a caption; empty without
/// --observe.
std::string observed_panels(const results::RunResults& r);

}  // namespace openloop::report
