// --observe in the results file: `summary.observed` and `intervals[].observed`, written and read back.
#pragma once

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "results/run_results.h"

namespace openloop::results {

/// Adds `summary.observed` to `j` (a results document as to_json builds it); nothing when the run observed
/// nothing. Each `intervals[i].observed` is written with its interval (results_json).
void write_observed(nlohmann::json& j, const RunResults& r);
/// Reads them back into r.observed and r.intervals[i].observed (after the intervals were read). A file
/// without them leaves both empty. Errors (usage) name the field.
Result<void> read_observed(const nlohmann::json& root, RunResults& r);

}  // namespace openloop::results
