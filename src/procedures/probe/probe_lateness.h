// The generator's own error in a probe: send lateness in the phases it compares, and whether it could have
// decided the verdict (docs/probe.md, "The generator's lateness").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "procedures/probe/probe_plan.h"
#include "procedures/probe/probe_verdict.h"
#include "procedures/probe/probe_window.h"

namespace openloop::procedures {

/// Send lateness in the phases the probe compares: baseline, observe and the descending steps that ran. The
/// trigger is exempt: its response times are not compared with anything.
struct Lateness {
  std::int64_t worst_p99_ns = 0;  ///< L: the largest send-lateness p99 of the compared phases
  /// Compared phases whose p99 exceeds the run verdict's bound at the phase's rate, one text each:
  /// "send-lateness p99 5ms > 1ms during observe".
  std::vector<std::string> over_bound;
};

/// Per compared phase of `rows` (skipped steps excluded): send-lateness p99 against the run verdict's bound
/// max(1 ms, 10 % of the phase's mean gap between arrivals).
Lateness lateness_of(const std::vector<PhaseRow>& rows);

/// The rule of docs/probe.md, applied once some compared phase is over its bound (nullopt otherwise): why the
/// generator's lateness could have decided `out`'s verdict, or nullopt when the verdict is unchanged for any
/// shift of response times within ±L, i.e.
///  - if it recovered (at the base load or on a step): a window of that same phase still meets every
///    criterion with the p99 bound lowered by L and the in-flight bound by offered × L;
///  - with both bounds raised by L, no earlier phase (observe, then each step) has a healthy window: a
///    METASTABLE run still finds none anywhere, a RECOVERED-AT-LOWER-LOAD run none at a higher rate.
/// L of 10 % of the client's timeout or more always could (late sends turn into timeouts); `timeout_s` 0
/// skips that test. The reason names the phases over their bound.
std::optional<std::string> lateness_decides(const ProbePlan& plan, const std::vector<Sample>& samples,
                                            const ProbeOutcome& out, const Lateness& late, double timeout_s);

/// The note of a verdict that stands although some phase was over its bound: the phases, L, and that the
/// verdict is unchanged for shifts of ±L; with the recovery time a shift of +L would give, if different.
std::string lateness_note(const ProbePlan& plan, const std::vector<Sample>& samples, const ProbeOutcome& out,
                          const Lateness& late);

}  // namespace openloop::procedures
