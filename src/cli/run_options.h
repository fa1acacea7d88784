// `openloop run` options as typed by the user, and their validation into a RunPlan (nothing is sent on error).
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/error.h"
#include "engine/run_plan.h"
#include "results/run_results.h"

namespace openloop::cli {

/// Raw option values (strings where units are parsed by openloop, so errors can name the flag).
struct RunOptions {
  std::string url;
  std::string rate, arrival = "constant", stages, duration = "10s", warmup = "0", timeout = "5s";
  std::uint64_t seed = 1;
  std::uint64_t vus = 0;
  std::string think = "0", pacing, max_rate, session_rate;
  std::uint64_t max_sessions = 0;
  std::uint64_t session_steps = 1;
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
  std::string hlog;  ///< HdrHistogram interval log of the run (empty: none)
  std::string html;  ///< self-contained HTML report (empty: none)
  bool quiet = false;
};

/// Registers the options on `sub`, one group per function.
void add_run_options(CLI::App& sub, RunOptions& o);

/// Validates and resolves everything (DNS once); errors name the flag, the value and what is accepted.
Result<engine::RunPlan> build_plan(const RunOptions& o);

/// Raises RLIMIT_NOFILE to its hard limit; returns the limit now in force.
std::uint64_t raise_fd_limit();

/// True when `target` names a scenario file (*.yaml, *.yml) rather than a URL.
bool is_plan_file(const std::string& target);
/// `openloop run plan.yaml`: runs every scenario of the file (cli/run_scenarios.cpp); returns the exit code.
int run_plan_file(const RunOptions& o);
/// The exit code of a finished run (DESIGN.md): interrupted 130, unreachable 4, invalid 3, else 0.
int exit_code_for(const results::RunResults& r);

}  // namespace openloop::cli
