// The audit as one self-contained HTML page: the findings and the feedback chart (offered rate against p99
// over time), uPlot and the report's stylesheet embedded from src/report/html, so it opens offline.
#pragma once

#include <string>

#include "audit/findings.h"

namespace openloop::audit {

/// The whole page: the verdict, the load model and its evidence, Little's law, the feedback sentence and its
/// chart (the sends per second of each time bin and their responses' p99, by send time), the percentiles as
/// recorded beside the corrected ones, the honest run's command and what the file cannot show. Every text
/// from the file is escaped. A Content-Security-Policy forbids every network request; once the chart has
/// drawn, the root element carries data-audit-chart-drawn="1", and a script error is recorded in data-errors
/// (for automated checks). A file with fewer than two bins has no chart (the page says so).
std::string render_html(const AuditResult& a);

}  // namespace openloop::audit
