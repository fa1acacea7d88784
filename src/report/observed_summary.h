// The terminal summary's lines on --observe: per source, its utilization, saturation and error signals.
#pragma once

#include <string>
#include <vector>

#include "results/run_results.h"

namespace openloop::report {

/// "observed (mean / max of the 1-s intervals; sampler ...)" then one line per source; empty without
/// --observe. The generator's line (self) is its USE line: CPU, busiest thread, run-queue wait,
/// descriptors, ephemeral ports in use of those available.
std::string render_observed(const results::RunResults& r);
/// The observed section of several runs of one procedure (a probe's repeats): render_observed() of the one
/// run, or of each under "run K of N"; empty when none observed.
std::string render_observed_runs(const std::vector<const results::RunResults*>& runs);

}  // namespace openloop::report
