// `ramp --fresh --repeat N`: a step's repeats made into one step: the spread of each percentile across them
// (results/merging/repeats.h, as `run --repeat`), the repeat the step is judged on, and whether the repeats agree.
#pragma once

#include <string>
#include <vector>

#include "procedures/ramp/ramp_analysis.h"
#include "results/merging/repeats.h"

namespace openloop::procedures {

/// Which repeat a step is judged on: the upper median by p99 (INVALID repeats rank above every valid one),
/// i.e. rank ⌊N/2⌋ + 1 of N from the fastest: the middle of 3, the slower of 2. Precondition: non-empty.
std::size_t median_repeat(const std::vector<StepRecord>& repeats);

/// The step made of `repeats` (at least one, in the order they ran, each judged on its own window): the
/// median_repeat()'s record, with every repeat kept, their windows as `set.runs` (set's planned count,
/// cooldown, contexts and lab as given), each percentile's spread and, when the repeats' verdicts differ
/// (state, or SLOs met), a sentence saying what each said.
StepRecord combine_repeats(std::vector<StepRecord> repeats, results::RepeatSet set);

/// The step's repeats on one line (empty without repeats): "3 repeats: p99 median 12.1 ms, range 11.0 – 14.2
/// ms; judged on #2", the variation flag when it fires, the disagreement.
std::string repeats_line(const StepRecord& step);

}  // namespace openloop::procedures
