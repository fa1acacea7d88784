// A run whose tail is the generator's: send lateness a large share of the response-time tail, named in a
// warning whatever the verdict, and beside a failed latency SLO whose percentile it mostly is.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "results/judging/slo.h"
#include "results/run_results.h"

namespace openloop::results {

/// Share of response time at p99.9 above which send lateness at p99.9 is called the tail's owner.
inline constexpr double k_generator_tail_share = 0.25;

/// The warning when the run's tail is the generator's (open and sessions models, VALID or not): send lateness at
/// p99.9 more than k_generator_tail_share of response time at p99.9, and at least 0.1 ms (response time counts
/// from the intended time, so that much of the tail was spent in openloop before sending). "" otherwise, and
/// with fewer than 1,000 responses (no p99.9 to speak of).
std::string generator_tail_warning(const RunResults& r);

/// A failed latency SLO's percentile, split: how much of it is send lateness (the generator's own delay before
/// the send) and how much service time (the target's part). Nanoseconds.
struct SloLateness {
  double percentile = 0;
  std::int64_t response_ns = 0, lateness_ns = 0, service_ns = 0;
  double share = 0;  ///< lateness_ns / response_ns
};

/// For a whole-run percentile SLO with an upper bound (`p99<200ms`) that was evaluated and failed in an open or
/// sessions run: its percentile split as above, when send lateness at that percentile is at least 0.1 ms and
/// more than k_generator_tail_share of response time at it. nullopt otherwise (the SLO met, another metric, a
/// per-request SLO, whose request has no lateness figure, a closed model).
std::optional<SloLateness> slo_lateness(const SloResult& s, const RunResults& r);

/// The sentence written beside such a failed SLO (summary, results file, JUnit): "73% of this p99 is openloop's
/// own send lateness (...): the target may not be at fault; ..."; "" when slo_lateness is nullopt.
std::string slo_lateness_note(const SloResult& s, const RunResults& r);

}  // namespace openloop::results
