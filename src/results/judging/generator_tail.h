// A run whose tail is the generator's: send lateness a large share of the response-time tail, named in a
// warning whatever the verdict.
#pragma once

#include <string>

#include "results/run_results.h"

namespace openloop::results {

/// Share of response time at p99.9 above which send lateness at p99.9 is called the tail's owner.
inline constexpr double k_generator_tail_share = 0.25;

/// The warning when the run's tail is the generator's (open and sessions models, VALID or not): send lateness at
/// p99.9 more than k_generator_tail_share of response time at p99.9, and at least 0.1 ms (response time counts
/// from the intended time, so that much of the tail was spent in openloop before sending). "" otherwise, and
/// with fewer than 1,000 responses (no p99.9 to speak of).
std::string generator_tail_warning(const RunResults& r);

}  // namespace openloop::results
