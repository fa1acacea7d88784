// A plan's `setup:` and `teardown:` steps: sent once, one after another, before and after the load, each on
// a blocking HTTP/1.1 connection of its own (docs/flows.md).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.h"
#include "engine/run_plan.h"
#include "workload/scenario.h"

namespace openloop::engine {

/// What a plan's setup steps captured: (variable index, value), as RunPlan::setup_values holds them.
using SetupValues = std::vector<std::pair<std::size_t, std::string>>;

/// Sends `steps` (the plan's setup or teardown; `phase` names it in messages: "setup", "teardown") to
/// plan.url at plan.endpoints, in order, each on its own connection (TLS as the URL says, verified unless
/// plan.insecure, plan.ca_file added), each bounded by plan.timeout as a whole. A step's request renders with
/// `given` (the setup's values, for the teardown) and what the earlier steps captured, and carries the
/// cookies their responses set. Every step must answer with a status in its request's success range and pass
/// each capture and check (whatever its on_fail). Blocks the calling thread; never used on a hot path.
/// Returns what the steps captured. Errors name the step (file:line:column), its request and why: usage when
/// the plan cannot run (a status, capture or check failed, or the target was never resolved), runtime when
/// the target cannot be reached or does not answer in time.
Result<SetupValues> run_once_steps(const RunPlan& plan, const std::vector<workload::Step>& steps,
                                   std::string_view phase, const SetupValues& given);

}  // namespace openloop::engine
