// The terminal summary's lines on --observe: per source, its utilization, saturation and error signals.
#pragma once

#include <string>

#include "results/run_results.h"

namespace openloop::report {

/// "observed (mean / max of the 1-s intervals; sampler ...)" then one line per source; empty without
/// --observe. The generator's line (self) is its USE line: CPU, busiest thread, run-queue wait,
/// descriptors, ephemeral ports in use of those available.
std::string render_observed(const results::RunResults& r);

}  // namespace openloop::report
