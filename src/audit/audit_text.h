// The audit as text for a terminal.
#pragma once

#include <string>

#include "audit/findings.h"

namespace openloop::audit {

std::string render_text(const AuditResult& a);

}  // namespace openloop::audit
