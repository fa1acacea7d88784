// The generator's own error in a probe: send lateness in the phases it compares, and whether it could have
// decided the verdict.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "procedures/probe_plan.h"
#include "procedures/probe_verdict.h"
#include "procedures/probe_window.h"

namespace openloop::procedures {

/// Send lateness in the phases the probe compares (baseline, observe, descending steps; the trigger is
/// exempt).
struct Lateness {
  std::int64_t worst_p99_ns = 0;  ///< the largest send-lateness p99 of those phases
  /// Phases whose p99 exceeds the run verdict's bound at the phase's rate.
  std::vector<std::string> problems;
};

/// Per compared phase: send-lateness p99 against max(1 ms, 10 % of the phase's mean gap between arrivals).
Lateness lateness_of(const ProbePlan& plan, const std::vector<Sample>& samples);

/// Why the generator's lateness could have decided `out`'s verdict, or nullopt when the verdict holds for any
/// shift of response times within ±worst_p99: a recovery must still pass with the p99 and in-flight bounds
/// tightened by it; a failure must still find no healthy window at the base load with them loosened by it.
/// Lateness of 10 % of the client timeout or more always could (it turns into timeouts). `timeout_s` 0 skips
/// that test.
std::optional<std::string> lateness_decides(const ProbePlan& plan, const std::vector<Sample>& samples,
                                            const ProbeOutcome& out, const Lateness& late, double timeout_s);

}  // namespace openloop::procedures
