// `openloop audit`: a results file of another tool read twice as a stream and turned into findings.
#pragma once

#include <string>

#include "audit/findings.h"
#include "audit/format.h"
#include "core/error.h"

namespace openloop::audit {

struct AuditSettings {
  Format format = Format::auto_detect;
  std::string target;                               ///< the URL the honest run prints (empty: TARGET)
  Nanos reorder_window = std::chrono::seconds(30);  ///< records out of send order are sorted within this
};

/// Reads `path` twice (the first pass gathers the senders, the bins and the uncorrected histogram; the second
/// records each response again with the expected interval of its sender), memory flat in the file's size. A
/// usage error names the file (and line) when it cannot be read as the format or holds no valid record.
Result<AuditResult> audit_file(const std::string& path, const AuditSettings& settings);

}  // namespace openloop::audit
