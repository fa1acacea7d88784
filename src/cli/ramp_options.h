// `openloop ramp`'s flags as typed, their CLI11 declarations by group (cli/ramp_options.cpp), and their
// checks into the ramp's settings and base plan (cli/ramp_checks.cpp).
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/grpc_options.h"
#include "cli/run_options.h"
#include "core/error.h"
#include "engine/run_plan.h"
#include "procedures/ramp/ramp_runner.h"

namespace openloop::cli {

// Ramp flags as typed; the target and client flags are `run`'s own groups.
struct RampFlags {
  RunOptions run;
  GrpcOptions grpc;  ///< --call, --proto, ... with a grpc:// target (docs/grpc.md)
  std::string from, to, step_mult, step_add, hold = "30s", warmup = "5s", deadline, tolerance = "2%";
  std::string stop_at = "collapse", cooldown = "5s", max_lateness;
  std::string repeat;                   ///< --repeat N as typed (empty: each step once)
  std::vector<std::string> step_until;  ///< --step-until targets as typed
  std::string step_max_hold;            ///< --step-max-hold (default 4 × --hold)
  std::size_t max_steps = 30;
  bool refine = false, fresh = false;
  std::string simulate;  ///< --simulate: the lab's flags of a simulated service (empty: the network)
  CLI::App* app = nullptr;
  bool given(const char* flag) const { return app->get_option(flag)->count() > 0; }
};

/// Registers ramp's options on `sub` in run's groups (target, load model, client, retries, outputs, judging).
void add_ramp_options(CLI::App& sub, RampFlags& f);

/// A ramp ready to run: its settings, the plan every step runs at its own rate, and its id.
struct RampPrepared {
  procedures::RampSettings settings;
  engine::RunPlan base;
  /// The ramp's id, made as run's (OPENLOOP_RUN_ID, else random): its file's run_id, its runs' and the
  /// run_id label of its metrics.
  std::string run_id;
};

/// Checks every flag and builds the base plan (cli/plan_builder.h, sized for the highest planned step),
/// resolved once, or marked simulated with --simulate (`f.run` then fixed to one thread, no spinning). Errors
/// (usage) name the flag and what is accepted; (runtime) the target does not resolve.
Result<RampPrepared> prepare_ramp(RampFlags& f);

}  // namespace openloop::cli
