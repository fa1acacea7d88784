// The summary's legend: what each headline of a run's summary means, a sentence each, for a reader who has
// not read the docs. Printed under the summary on a terminal (or with --explain), never in a file.
#pragma once

#include <string>

#include "results/run_results.h"

namespace openloop::report {

/// The legend for `r`'s summary: response time, service time and send lateness as the run's model measured
/// them, throughput and goodput, the checks line when the run has one, and what VALID / INVALID ask of the
/// reader. Starts with a blank line; ends with a newline.
std::string render_legend(const results::RunResults& r);

}  // namespace openloop::report
