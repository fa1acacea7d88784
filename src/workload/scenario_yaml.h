// Reading one scenario of a plan file (model, load, requests): internal to the scenario-file loader.
#pragma once

#include <cstddef>
#include <filesystem>
#include <vector>

#include "workload/scenario.h"
#include "workload/yaml_fields.h"

namespace openloop::workload::yaml {

/// Reads the scenario at `field` (key path "scenarios.NAME"), whose requests must be in `plan.requests`.
/// `index` is its position in the file: without a seed of its own, its seed is plan.seed + index. A replay
/// arrival's trace is found relative to `base_dir` (the plan file's folder) and read whole here.
Result<ScenarioPlan> read_scenario(const Doc& doc, const Field& field, const std::string& name,
                                   std::size_t index, const WorkloadPlan& plan,
                                   const std::filesystem::path& base_dir);

/// Reads a plan's `setup:` or `teardown:` list at `field` (steps as in a scenario, sent once, in order, without
/// think times). Errors (usage) name the step's file:line:column.
Result<std::vector<Step>> read_once_steps(const Doc& doc, const Field& field, const WorkloadPlan& plan);

}  // namespace openloop::workload::yaml
