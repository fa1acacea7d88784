// From a scenario file's WorkloadPlan to one RunPlan per scenario, sharing one target and the plan's request
// templates.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "engine/run_plan.h"
#include "workload/scenario.h"

namespace openloop::engine {

/// Run settings the command line adds to a scenario file.
struct RunSettings {
  unsigned threads = 1;  ///< worker threads in all; each scenario gets an equal share (≥ 1)
  Nanos warmup{0};       ///< the leading part of every scenario that is sent but not measured
  OnSaturation on_saturation = OnSaturation::drop;
  std::uint64_t max_connections = 0;  ///< per scenario; 0 = Little's law default
  std::optional<Nanos> spin_below;    ///< RunPlan::spin_below
  double spin_budget = k_default_spin_budget;  ///< RunPlan::spin_budget
  Nanos coalesce{0};                  ///< RunPlan::coalesce; only open-model scenarios may have it
  bool accept_bunching = false;       ///< RunPlan::accept_bunching
  std::uint64_t fd_limit = 1024;
  bool insecure = false;
  std::string ca_file;
  RetryOptions retry;  ///< the retry flags, applied to every scenario (with its own timeout)
  ProtocolChoice protocol = ProtocolChoice::automatic;  ///< --protocol, for every scenario
  /// --max-streams, --h2-window and --connections (per scenario) when given on the command line; else the
  /// file's `defaults:`, else RunPlan's defaults (100 streams, 2^30 - 1 bytes, connections derived).
  std::optional<std::uint32_t> max_streams;
  std::optional<std::uint32_t> h2_window;
  std::uint64_t connections = 0;  ///< 0: not given
};

/// Default cap on concurrent sessions (partly-open model), the one rule for flags (cli/plan_builder.h) and plan
/// files: Little's law with a session's longest life, each step's timeout plus its mean think (`plan.steps`,
/// `plan.timeout`; no steps: one request and `plan.think`), so about session rate × steps × (timeout + think)
/// at the profile's peak, with default_max_connections' headroom and bounds.
std::uint64_t default_max_sessions(const RunPlan& plan, unsigned threads, std::uint64_t fd_limit);

/// The plan's requests as a run sends them: one per template, in the plan's order (mixes and steps refer to them
/// by index), weighted by scenario `s`'s mix; constant ones rendered once, templated ones per request; each with
/// its template's success range.
std::vector<RequestSpec> requests_of(const workload::WorkloadPlan& w, const workload::ScenarioPlan& s);

/// One RunPlan per scenario. Requests keep the plan's indices (a scenario's mix or steps refer to them);
/// constant ones are rendered once, templated ones render per request. Pure: the endpoints are left empty for
/// the caller to resolve (or not, in a simulation). Errors (usage): a warm-up as long as a scenario, bad retry
/// flags (parse_retry_policy).
Result<std::vector<RunPlan>> plans_from_workload(std::shared_ptr<const workload::WorkloadPlan> workload,
                                                 const RunSettings& settings);

}  // namespace openloop::engine
