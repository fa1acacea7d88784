// Locust's `--csv PREFIX` stats history (PREFIX_stats_history.csv): per-second aggregates, no request records
// (docs/audit.md#locust). Only Little's law and the feedback can be read from it.
#pragma once

#include <string>

#include "audit/findings.h"
#include "core/error.h"

namespace openloop::audit {

/// Audits the "Aggregated" rows: `Timestamp` (Unix s), `User Count`, `Requests/s`, `99%` (ms, the current
/// window's), `Total Request Count`, `Total Average Response Time` (ms, cumulative). Little's law with N the
/// mean user count, X the requests over the span, R the final cumulative mean, Z = N/X − R (the users'
/// wait_time and Locust's own time); the feedback from the rows as bins. No correction: the file holds no
/// request.
Result<AuditResult> audit_locust_history(const std::string& path, const std::string& target);

}  // namespace openloop::audit
