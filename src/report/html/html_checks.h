// The HTML report's self-checks section: the arrival process per worker, the latency samples' independence,
// and the percentiles' confidence intervals on the effective sample size (docs/statistics.md).
#pragma once

#include <string>

#include "report/report_input.h"

namespace openloop::report::html {

/// The "Self-checks" panel; empty when the results carry no checks (merges, older files, .hlog).
std::string checks_section(const ReportInput& in);

}  // namespace openloop::report::html
