// The coordinator: starts the workers of every plan (scenario), merges their intervals, handles stop
// requests, and builds each plan's results.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <vector>

#include "core/error.h"
#include "engine/run_plan.h"
#include "results/run_results.h"

namespace openloop::engine {

/// How long after run_all() is called its schedule begins at the earliest (every worker is ready by then);
/// RunPlan::start_at may set a later start. Building and starting two workers took 35-55 ms on the 2-core VM
/// (their histograms' spares, threads): at 20 ms the first arrivals of a 2-thread run were sent ~35 ms late,
/// enough to make a short low-rate run INVALID on an idle machine.
inline constexpr std::chrono::milliseconds k_start_delay{100};

/// Called about once per finalized interval on the coordinator's thread (live progress) with the results so
/// far; may be empty. That thread is run_all's own, at the lowest priority (nice 19), never the caller's.
using ProgressFn = std::function<void(const results::RunResults& so_far)>;
/// The same for several plans at once: the results so far of each plan, in order.
using MultiProgressFn = std::function<void(const std::vector<const results::RunResults*>& so_far)>;

/// Runs every plan at once from a common start (each shifted by its start_offset) until all end, or until
/// `stop` becomes non-zero (1 = graceful, 2 = immediate; typically set by a signal watcher). Returns one
/// complete result per plan, in order: verdict judged, generator stats filled, interrupted marked, example
/// errors and single-key warnings attached; a worker whose event loop failed makes its plan's verdict
/// INVALID, naming the failure. The calling thread's priority is left as it was. Errors: usage (a plan beyond
/// what the machine can generate, check_feasible: nothing is sent), runtime (TLS setup, event loop creation).
/// An exception thrown by `progress` stops the run at once and is rethrown here once every thread has ended.
Result<std::vector<results::RunResults>> run_all(const std::vector<RunPlan>& plans, std::atomic<int>& stop,
                                                 const MultiProgressFn& progress = {});

/// run_all() of one plan.
Result<results::RunResults> run(const RunPlan& plan, std::atomic<int>& stop, const ProgressFn& progress = {});

}  // namespace openloop::engine
