// What a plan needs from the machine, in one place around the pure plan builder (cli/plan_builder.h): before
// it, the facts it reads (cores, the open-file limit once raised, the engines' shard variables); after it,
// the one DNS resolution of the target, which a simulation skips.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "engine/run_plan.h"
#include "workload/shard_env.h"

namespace openloop::cli {

/// What the plan builder reads of the machine and the process, gathered before it runs so that building a
/// plan is a function of the flags and these facts alone (tests give their own).
struct HostFacts {
  unsigned cores = 1;                 ///< worker threads when --threads is not given; at least 1
  std::uint64_t fd_limit = 1024;      ///< open files this process may hold (after raise_fd_limit())
  workload::Environment environment;  ///< the engines' shard variables (workload::shard_environment())
};

/// Raises RLIMIT_NOFILE to its hard limit; returns the limit now in force.
std::uint64_t raise_fd_limit();

/// This machine's facts: its cores, the open-file limit raised to its hard limit (raise_fd_limit(), a
/// process-wide change), the environment's shard variables. Call once per command, before building.
HostFacts host_facts();

/// Resolves the target of `plans` (they share one: a scenario file's scenarios, or one plan) once, and gives
/// every plan the endpoints and the time the resolution took (reported as the DNS phase). Error (runtime):
/// the host does not resolve (net::resolve's message). No plans: nothing to do.
Result<void> resolve_target(const std::vector<engine::RunPlan*>& plans);

/// The plan's target as HOST:PORT ([HOST]:PORT for IPv6), as messages about reaching it name it.
std::string target_address(const engine::RunPlan& plan);

/// A plan run in virtual time (simulate, ramp --simulate, probe --simulate): no resolution (a simulation
/// sends nothing and must run on a machine with no network; the URL only labels the service), one unspecified
/// endpoint the simulated event loop never dials, and no DNS phase (dns_time −1).
void mark_simulated(engine::RunPlan& plan);

/// The results' `environment`: host name, cores and openloop version.
nlohmann::json run_environment();

}  // namespace openloop::cli
