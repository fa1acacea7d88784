// Reading a flow step's captures, checks and on_fail from a plan file, and the load-time rule that a step
// reads only what an earlier step of its scenario captured. Internal to the scenario-file loader.
#pragma once

#include "core/error.h"
#include "workload/flow_step.h"
#include "workload/scenario.h"
#include "workload/yaml_fields.h"

namespace openloop::workload::yaml {

/// Before the requests compile: declares every name a step captures (`as:`) as a captured variable, so
/// `{{token}}` in a request compiles. Only well-formed `as:` values are read here (read_step_flow reports the
/// rest). Errors (usage): a name that is not an identifier, or that the plan's `variables:` already declare.
Result<void> declare_captures(const Doc& doc, const Fields& top, VariableSet& variables);

/// The `capture`, `check` and `on_fail` keys of a step (the others are the caller's). Errors (usage) name the
/// file:line:column, the key path, what was found and what is accepted.
Result<StepFlow> read_step_flow(const Doc& doc, const Fields& step, const VariableSet& variables);

/// Refuses a scenario whose requests read a captured variable that no earlier step of the scenario captured
/// (a mix never captures). `where` names the scenario for a mix.
/// Reads of what the plan's `setup:` captured are allowed everywhere (a mix too); a scenario step capturing
/// a name the setup captures is refused (the setup's values are read-only).
Result<void> check_captured_uses(const ScenarioPlan& s, const WorkloadPlan& plan, std::string_view where);

/// The same rule for the plan's `setup:` (each step reads what an earlier setup step captured) and
/// `teardown:` (what the setup or an earlier teardown step captured).
Result<void> check_once_uses(const WorkloadPlan& plan);

}  // namespace openloop::workload::yaml
