// Locust's `--csv PREFIX` stats history (PREFIX_stats_history.csv): per-second aggregates, no request records
// (docs/audit.md#locust): Little's law, the feedback, and a pace told from a think time by the windows.
#pragma once

#include <string>

#include "audit/findings.h"
#include "core/error.h"

namespace openloop::audit {

/// Audits the "Aggregated" rows: `Timestamp` (Unix s), `User Count`, `Requests/s`, `99%` (ms, over Locust's
/// last 10 s), `Total Request Count`, `Total Average Response Time` (ms, cumulative). Little's law with N the
/// mean user count, X the requests over the span, R the final cumulative mean, Z = N/X − R (the users'
/// wait_time and Locust's own time); the windows between changes of the total count as the feedback's bins and
/// the evidence for a pace or a think time (docs/audit.md#method). No correction: the file holds no request.
Result<AuditResult> audit_locust_history(const std::string& path, const std::string& target);

}  // namespace openloop::audit
