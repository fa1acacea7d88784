// The one plan builder: flags → engine::RunPlan for `run`, `simulate`, `ramp` and `probe`, and a scenario
// file's flags → its RunPlans. Pure: it reads the options, the machine's facts handed in (HostFacts) and the
// input files the flags name (--body @FILE, --targets, the plan file); it raises no limit, resolves no name,
// writes no file and reads no clock. Those happen around it, in cli/plan_host.h. Every refusal is a usage
// error naming the flag, the value and what is accepted (nothing is sent).
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "cli/plan_host.h"
#include "cli/run_options.h"
#include "core/error.h"
#include "engine/run_plan.h"
#include "engine/scenario_plans.h"
#include "workload/scenario.h"

namespace openloop::cli {

/// A run from flags: the request(s) (a URL, templates, or --targets), the workload model and its length, the
/// client policy, the threads and connection cap (given, else Little's law within host.fd_limit; sessions:
/// engine::default_max_sessions), this process's shard (--shard or host.environment). The endpoints are left
/// empty: resolve_target() before sending, or mark_simulated().
Result<engine::RunPlan> build_plan(const RunOptions& o, const HostFacts& host);

/// The client a simulation runs (simulate, ramp --simulate, probe --simulate), set in `o` before building: one
/// worker on virtual time, no spinning, no coalescing (it wakes exactly when due). Refuses (usage) --threads
/// above 1 (saying the client is `one_worker`, e.g. "one worker in virtual time") and --coalesce, naming them.
Result<void> use_simulated_client(RunOptions& o, std::string_view one_worker = "one worker");

/// The settings the flags add to a scenario file's scenarios, built once for run, simulate and ramp:
/// --threads (default host.cores), --warmup, --on-saturation, --max-connections, --spin-below, --coalesce,
/// --accept-bunching, -k, --cacert, the retry flags, and host.fd_limit. Callers adjust what they fix (a
/// simulation: one thread, no spinning).
Result<engine::RunSettings> run_settings(const RunOptions& o, const HostFacts& host);

/// -e and --target applied to the plan file `o.url`, loaded and checked (workload::load_plan_file).
Result<std::shared_ptr<const workload::WorkloadPlan>> load_plan(const RunOptions& o);

/// Refuses a plan file with `setup:` or `teardown:` steps where only `openloop run` sends them (`command`:
/// "simulate", "ramp"). Error (usage) names the file and says where they run.
Result<void> refuse_once_steps(const workload::WorkloadPlan& file, std::string_view command);

/// A scenario file's plans: one per scenario of `file` with `settings` (engine::plans_from_workload, whose
/// session cap is engine::default_max_sessions as for flags) and --server-timing-metric. Endpoints left
/// empty, as build_plan's.
Result<std::vector<engine::RunPlan>> build_file_plans(const RunOptions& o,
                                                      std::shared_ptr<const workload::WorkloadPlan> file,
                                                      const engine::RunSettings& settings);

/// This process's shard (--shard, else host.environment) on every plan, each checked (check_shard_part).
Result<void> apply_shard(const RunOptions& o, const HostFacts& host, std::vector<engine::RunPlan>& plans);

}  // namespace openloop::cli
