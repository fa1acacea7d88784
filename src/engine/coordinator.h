// The coordinator: starts one worker per thread, merges their intervals, handles stop requests, builds the results.
#pragma once

#include <atomic>
#include <functional>

#include "core/error.h"
#include "engine/run_plan.h"
#include "results/run_results.h"

namespace openloop::engine {

/// Called about once per finalized interval on the coordinator's thread (live progress); may be empty.
using ProgressFn = std::function<void(const results::RunResults& so_far)>;

/// Runs the plan to its end (or until `stop` becomes non-zero: 1 = graceful, 2 = immediate; typically set by a
/// signal handler) and returns complete results: verdict judged, generator stats filled, interrupted marked.
/// Errors: runtime (TLS setup, event loop creation).
Result<results::RunResults> run(const RunPlan& plan, std::atomic<int>& stop, const ProgressFn& progress = {});

}  // namespace openloop::engine
