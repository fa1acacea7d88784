// `openloop probe metastable --simulate '<lab options>'`: one probe run on virtual time.
#pragma once

#include <atomic>

#include "core/error.h"
#include "engine/run_plan.h"
#include "lab/model_config.h"
#include "procedures/probe/probe_plan.h"
#include "procedures/probe/probe_runner.h"

namespace openloop::sim {

/// Runs one probe (`run_plan` is `plan`'s staircase, one worker) against a simulated lab service of `lab`'s
/// configuration in virtual time, and judges it as procedures::run_probe judges a real one. The trigger
/// reconfigures the simulated service at the virtual instant its phase begins, with the very change the real
/// probe posts to the lab's /_lab/config (procedures::LabDriver): a stall adds a one-off stall [uptime,
/// uptime + length) to the stall list; a dependency trigger raises or sets the dependency and restores it at
/// the phase's end. The service's state is sampled every second of virtual time (the real probe's polling of
/// /_lab/stats, through the same stats document). A descending probe stops once it has recovered at the base
/// load and the steps have begun. `ctx.lab` is not used. `user_stop` (the signal watcher's) stops the run at
/// the next virtual second. Deterministic for a seed. Errors: usage (check_simulable); runtime when the
/// trigger's change cannot be applied (a dependency the lab cannot raise).
Result<procedures::ProbeRun> simulate_probe(const engine::RunPlan& run_plan,
                                            const procedures::ProbePlan& plan,
                                            const procedures::ProbeContext& ctx, const lab::LabConfig& lab,
                                            std::atomic<int>& user_stop);

}  // namespace openloop::sim
