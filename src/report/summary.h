// The terminal summary of a run: verdict first, then rates, latencies, outcomes and the generator's own error.
#pragma once

#include <string>

#include "results/run_results.h"

namespace openloop::report {

/// Renders the end-of-run summary as plain text (no colour codes), one block per topic.
std::string render_summary(const results::RunResults& r);

}  // namespace openloop::report
