// Whether runs can be merged (results/merging/merge.h): refusals that name the inputs and the difference, and the
// warnings for runs that can be added although they may not belong together.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "results/merging/merge.h"

namespace openloop::results {

/// plan[key], or null when the plan is not an object or has no such field.
nlohmann::json plan_field(const nlohmann::json& plan, const std::string& key);

/// Refuses (usage) an input without a wall-clock start (environment.start_unix_s: its intervals cannot be
/// aligned), a model that differs from the first input's, or a plan field of k_merge_must_match that differs,
/// naming both inputs and both values.
Result<void> check_compatible(const std::vector<MergeInput>& inputs);

/// Refuses (usage) two inputs that are one run (the same run id and shard index; for files written before run
/// ids, the same host, wall-clock start, plan, measured period and counts): they would count every request
/// twice.
Result<void> check_distinct(const std::vector<MergeInput>& inputs);

/// Adds to `warnings` why the merged run (`plan`: its merged plan, with plan.differs; `measured_s`: its
/// measured period) may not be any run's: inputs that do not overlap in time, and plans that differ in more
/// than how the load was driven (threads, seed, spin, coalescing, insecure).
void warn_mismatch(const std::vector<MergeInput>& inputs, const nlohmann::json& plan, double measured_s,
                   std::vector<std::string>& warnings);

}  // namespace openloop::results
