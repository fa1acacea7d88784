// `openloop probe metastable`'s flags as typed, their CLI11 declarations (run's target, client, retry and
// output groups and the probe's own) and their checks into the probe's settings (cli/probe_options.cpp).
#pragma once

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/grpc_options.h"
#include "cli/run_options.h"
#include "core/error.h"
#include "procedures/probe/probe_plan.h"

namespace openloop::cli {

/// The probe's own flags as typed; the client flags live in RunOptions.
struct ProbeFlags {
  std::string base, trigger, trigger_for = "60s", baseline_for = "60s", observe_for = "180s", warmup = "10s";
  std::string window = "30s", descend_step = "10%", descend_for, lab_control, arrival = "constant";
  unsigned descend = 0, repeats = 1;
  std::uint64_t seed = 1;
  std::string simulate;  ///< --simulate: the lab's flags of a simulated service
  GrpcOptions grpc;      ///< --call, --proto, ... with a grpc:// target (docs/grpc.md)
  bool quick = false;    ///< --quick: every phase short unless its own flag is given (probe_options.cpp)
  CLI::Option* trigger_for_option = nullptr;
  CLI::Option* baseline_for_option = nullptr;
  CLI::Option* observe_for_option = nullptr;
  CLI::Option* warmup_option = nullptr;
  CLI::Option* window_option = nullptr;
  CLI::Option* simulate_option = nullptr;
  bool simulated() const { return simulate_option != nullptr && simulate_option->count() > 0; }
};

/// Registers the probe's options on `sub`: run's target, client, retry and output groups into `o` (without
/// --hlog, --abort-on-slo and --report-dir, which a probe does not write or judge), the probe's own and the
/// gRPC flags into `f`, --observe and the metrics endpoint.
void add_probe_options(CLI::App& sub, RunOptions& o, ProbeFlags& f);

/// The probe's settings from its own flags. Errors (usage) name the flag and what is accepted.
Result<procedures::ProbeSettings> settings_from(const ProbeFlags& f);

}  // namespace openloop::cli
