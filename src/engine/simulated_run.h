// A plan's run on a simulated network (`openloop simulate`): the coordinator's work, single-threaded, on
// virtual time.
#pragma once

#include <atomic>

#include "core/error.h"
#include "engine/coordinator.h"
#include "engine/run_plan.h"
#include "net/simulated_network.h"
#include "results/run_results.h"

namespace openloop::engine {

/// Runs `plan` on a simulated network instead of the kernel's: its one worker (the plan must have
/// threads = 1) on `net`'s virtual clock, from virtual time `start`, on the calling thread, with the
/// intervals merged every plan.interval of virtual time. The results are built as run()'s are (same recorder,
/// aggregator, verdict); the generator's CPU, RSS and spin are left 0 (the client is simulated, and a
/// simulated run must not depend on this machine) and its wall time is the virtual time the run took. `stop`
/// is read every loop round as in a real run; `progress` is called as run()'s is, about once per finalized
/// interval (here: of virtual time), on the calling thread. Errors: usage when the plan has several threads.
Result<results::RunResults> run_simulated(const RunPlan& plan, net::SimulatedNetwork& net, SteadyTime start,
                                          std::atomic<int>& stop, const ProgressFn& progress = {});

/// run_simulated() of several plans at once (a scenario file's scenarios), each plan's one worker on a
/// fiber of its own (net::SimulatedClients), all against `net`: the scenarios share the simulated service as
/// they would share a real server. One result per plan, in order, as run_all() returns them; `progress` as
/// run_all()'s, with every plan's results so far. One plan runs as run_simulated() does. Errors (usage): no
/// plan, a plan with several threads.
Result<std::vector<results::RunResults>> run_simulated_all(const std::vector<RunPlan>& plans,
                                                           net::SimulatedNetwork& net, SteadyTime start,
                                                           std::atomic<int>& stop,
                                                           const MultiProgressFn& progress = {});

}  // namespace openloop::engine
