// `run`'s flags for runs made of shards: --run-id, --start-at, --max-late; the wait for the common start, the
// run's identity and start in its results, and the manifest each shard writes last.
#pragma once

#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/run_pipeline.h"
#include "core/error.h"
#include "core/start_at.h"
#include "engine/run_plan.h"
#include "results/run_results.h"

namespace openloop::cli {

/// Registers --run-id, --start-at and --max-late on `sub` in the group `group`.
void add_start_options(CLI::App& sub, RunOptions& o, const char* group);

/// What the run carries from those flags: its id, the common start if any, and whether it writes a manifest.
struct StartContext {
  std::string run_id;
  std::string plan_hash;
  std::optional<StartPlan> start;  ///< --start-at given
  bool manifest = false;           ///< sharded, or --start-at, --run-id or OPENLOOP_RUN_ID given
};

/// Validates the flags against `plan` (the run's plan.describe()): the run id is --run-id, else
/// OPENLOOP_RUN_ID, else, for a sharded plan (plan.shard), one every shard derives alike from the plan hash
/// and --start-at, else random. Errors (usage) name the flag and what is accepted. `env` reads the
/// environment (injectable).
Result<StartContext> prepare_start(const RunOptions& o, const nlohmann::json& plan,
                                   const std::function<const char*(const char*)>& env = std::getenv);

/// With --start-at: waits on the real wall clock until k_start_lead before it (Ctrl-C ends the wait: exit
/// 130, nothing sent), fails with exit 75 when that wake-up came later than --max-late, and anchors `plan`'s
/// schedule at the start time on the steady clock (plan.start_at), so the engine's preparation happens within
/// the lead; every plan (a plan file's scenarios) is anchored alike. A wake-up more than half the lead late
/// anchors nothing: the run starts once prepared, its lag recorded. Call before any thread that could take
/// SIGINT is started. Without --start-at: returns at once.
Result<void> wait_for_common_start(const StartContext& c, const std::vector<engine::RunPlan*>& plans);

/// How long before --start-at the wait ends, for the run to prepare (descriptor table, timer-cost
/// measurement, workers) while its schedule stays anchored at the start.
inline constexpr std::chrono::milliseconds k_start_lead{1000};

/// Stamps the run id, the start (lag from the results' own measured start, the wall clock's error bound) into
/// `r`.
void stamp_start(const StartContext& c, results::RunResults& r);

/// The manifest output (`<json>.manifest.json`), to be the LAST of `outputs`: it hashes every other output
/// file as written. Nothing when the run writes no manifest or no --json.
std::optional<OutputFile<results::RunResults>> manifest_output(
    const StartContext& c, const std::vector<OutputFile<results::RunResults>>& outputs);

}  // namespace openloop::cli
