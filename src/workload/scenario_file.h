// Loading a workload plan from a YAML scenario file (format: docs/scenarios.md): all or nothing.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "workload/env_substitution.h"
#include "workload/scenario.h"

namespace openloop::workload {

/// Reads and validates the plan file at `path`; csv files are found relative to its folder. Either the whole
/// plan, or an error (usage) of the form "file:line:column: key.path: what was found; what is accepted" — the
/// first problem found, nothing half-loaded. Errors cover: the file unreadable or not YAML; unknown,
/// repeated, missing or misplaced keys; every value's syntax (URL, durations, rates, stages, distributions,
/// statuses, generator expressions, templates); references to undeclared requests or variables; model
/// parameters that contradict each other.
/// `inputs` (the command line's -e and --target) are applied first: ${VAR} references are substituted in the
/// text (errors name file:line:column and the variable; see substitute_variables), then --target replaces the
/// scheme, host and port of `target:` (its base path kept) before any request is compiled.
struct PlanInputs {
  TextVariables variables;  ///< -e NAME=value, then the environment
  std::string target;       ///< --target URL (parse_target_override), or "" to keep the file's
};
/// PlanInputs from the command line: each "-e NAME=value" (parse_define) and --target (checked by
/// parse_target_override; "" for none). Errors (usage) name the flag.
Result<PlanInputs> make_plan_inputs(const std::vector<std::string>& defines, const std::string& target);

Result<WorkloadPlan> load_plan_file(const std::string& path, const PlanInputs& inputs = {});

/// Same, from text already in memory (tests, stdin): `source` names the file in messages; `base_dir` resolves
/// relative csv paths.
Result<WorkloadPlan> load_plan_text(std::string_view text, const std::string& source,
                                    const std::filesystem::path& base_dir, const PlanInputs& inputs = {});

}  // namespace openloop::workload
