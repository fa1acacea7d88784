// Loading a workload plan from a YAML scenario file (format: docs/scenarios.md): all or nothing.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "core/error.h"
#include "workload/scenario.h"

namespace openloop::workload {

/// Reads and validates the plan file at `path`; csv files are found relative to its folder. Either the whole
/// plan, or an error (usage) of the form "file:line:column: key.path: what was found; what is accepted" — the
/// first problem found, nothing half-loaded. Errors cover: the file unreadable or not YAML; unknown,
/// repeated, missing or misplaced keys; every value's syntax (URL, durations, rates, stages, distributions,
/// statuses, generator expressions, templates); references to undeclared requests or variables; model
/// parameters that contradict each other.
Result<WorkloadPlan> load_plan_file(const std::string& path);

/// Same, from text already in memory (tests, stdin): `source` names the file in messages; `base_dir` resolves
/// relative csv paths.
Result<WorkloadPlan> load_plan_text(std::string_view text, const std::string& source,
                                    const std::filesystem::path& base_dir);

}  // namespace openloop::workload
