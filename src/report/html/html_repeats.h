// The HTML report's repeats panel (`run --repeat N`): each repeat in a row, each percentile's spread across
// the repeats, and the run-to-run flag (docs/statistics.md, Repeats).
#pragma once

#include <string>

#include "report/report_input.h"

namespace openloop::report::html {

/// The "Repeats" panel, from the results document's `repeats` and `repeat_summary`; empty when it has none.
std::string repeats_section(const ReportInput& in);

}  // namespace openloop::report::html
