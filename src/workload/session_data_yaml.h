// Reading a scenario's `data: {file, order}` from a plan file: its columns declared as variables before the
// requests compile, then the table itself. Internal to the scenario-file loader.
#pragma once

#include <filesystem>

#include "core/error.h"
#include "workload/scenario.h"
#include "workload/session_data.h"
#include "workload/yaml_fields.h"

namespace openloop::workload::yaml {

/// Before the requests compile: reads each scenario's data file, declares every column whose name is a
/// variable name as a variable a session sets (GeneratorKind::captured), so `{{user_id}}` compiles, and keeps
/// the table in `variables` (store_session_data()). Files are found relative to `base_dir`. Errors (usage,
/// with the plan's file:line:column): the data is not {file, order}, the file is unreadable, has no header or
/// no rows, a header names a column twice, a row's field count differs from the header's (with the CSV's
/// line), or a column has the name of one of the plan's `variables:`.
Result<void> declare_data_columns(const Doc& doc, const Fields& top, const std::filesystem::path& base_dir,
                                  VariableSet& variables);

/// The checks on a scenario's `data:` at `field` once its steps are read into `s`. Errors (usage): a scenario
/// without steps; a column named as a value `setup:` captures.
Result<void> check_data(const Doc& doc, const Field& field, const ScenarioPlan& s, const WorkloadPlan& plan);

}  // namespace openloop::workload::yaml
