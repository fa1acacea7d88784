// A plan file's gRPC calls made ready to send (docs/grpc.md, "In plan files"): the schema loaded, each call's
// method found and its message checked, then each call's request in every scenario's plan given the framed
// message (a constant one, encoded once) or the encoder that encodes it per call (a templated one).
#pragma once

#include <string>
#include <vector>

#include "cli/run_options.h"
#include "core/error.h"
#include "engine/run_plan.h"
#include "workload/scenario.h"

namespace openloop::cli {

/// Checks `file`'s calls against their schema (`defaults.grpc`'s proto files or protoset; with neither, the
/// server's reflection at the plan's target, asked now, one stream per call, bounded by o.timeout) and marks
/// `plans` (one per scenario, as build_file_plans makes them): each call's request sends its message framed
/// once, or, when its template draws variables, the rendered JSON encoded per call. No calls: nothing.
/// Refusals are usage errors (exit 2, before any load) beginning with the call's place in the file and the
/// scenarios that use it: an unknown service or method (listing those there are), a streaming method, a
/// message that does not fit (the field; a templated one with each {{...}} drawn as 0), a schema that does
/// not load, no reflection.
Result<void> apply_plan_grpc_calls(const RunOptions& o, const workload::WorkloadPlan& file,
                                   std::vector<engine::RunPlan>& plans);

/// `openloop validate`'s lines for the calls, after the same checks: per call its method, the schema's source
/// and its message ("" when the plan holds no call).
Result<std::string> describe_plan_grpc_calls(const RunOptions& o, const workload::WorkloadPlan& file);

}  // namespace openloop::cli
