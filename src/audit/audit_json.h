// The audit as JSON (schema openloop.audit/1; docs/audit.md lists its fields).
#pragma once

#include <nlohmann/json.hpp>

#include "audit/findings.h"

namespace openloop::audit {

inline constexpr const char* k_audit_schema = "openloop.audit/1";

/// Times in seconds (`_s`), rates per second.
nlohmann::json to_json(const AuditResult& a);

}  // namespace openloop::audit
