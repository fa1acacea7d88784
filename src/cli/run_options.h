// `openloop run` options as typed by the user, and their validation into a RunPlan (nothing is sent on error).
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/error.h"
#include "engine/run_plan.h"

namespace openloop::cli {

/// Raw option values (strings where units are parsed by openloop, so errors can name the flag).
struct RunOptions {
  std::string url;
  std::string rate, arrival = "constant", stages, duration = "10s", warmup = "0", timeout = "5s";
  std::uint64_t seed = 1;
  std::uint64_t vus = 0;
  unsigned threads = 0;
  std::uint64_t max_connections = 0;
  std::string on_saturation = "drop";
  std::string method = "GET";
  std::vector<std::string> headers;
  std::string body;
  bool insecure = false;
  std::string cacert;
  std::string success = "100-399";
  std::string json;
  bool quiet = false;
};

/// Registers the options on `sub`, one group per function.
void add_run_options(CLI::App& sub, RunOptions& o);

/// Validates and resolves everything (DNS once); errors name the flag, the value and what is accepted.
Result<engine::RunPlan> build_plan(const RunOptions& o);

}  // namespace openloop::cli
