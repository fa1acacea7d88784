// The feedback: offered rate against latency over time, and the one sentence that says whether the rate fell
// as the latency rose.
#pragma once

#include "audit/findings.h"
#include "audit/time_bins.h"

namespace openloop::audit {

/// Reads the bins: the healthy level is the bins' median rate and median p99; the slow stretches are the bins
/// whose p99 is at least twice the healthy one or whose rate is under half the healthy one (empty bins
/// between the first and last count, at rate 0). The first and last bins (partial) are left out when there
/// are more than four. Feedback is seen when the slow stretches' rate is ≥ 20 % below the healthy rate and
/// their p99 at least twice the healthy p99.
FeedbackFinding find_feedback(const TimeBins& bins);

}  // namespace openloop::audit
