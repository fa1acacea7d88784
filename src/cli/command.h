// The subcommand contract: each cli/<name>.cpp registers its options and returns the action to run.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace openloop::cli {

/// Runs a parsed subcommand; returns the process exit code (DESIGN.md exit codes).
using Action = std::function<int()>;

/// `openloop run`: the load generator (cli/run.cpp).
Action setup_run(CLI::App& sub);
/// `openloop lab`: the lab service (cli/lab.cpp).
Action setup_lab(CLI::App& sub);
/// `openloop validate`: load and check a scenario file, describe it, send nothing (cli/validate.cpp).
Action setup_validate(CLI::App& sub);
/// `openloop report`: re-render a results file or an .hlog (cli/report.cpp).
Action setup_report(CLI::App& sub);
/// `openloop merge`: merge several runs' results exactly (cli/merge.cpp).
Action setup_merge(CLI::App& sub);
/// `openloop compare`: a candidate run against a baseline, with intervals and --fail-on gates
/// (cli/compare.cpp).
Action setup_compare(CLI::App& sub);
/// `openloop ramp`: step the offered rate up; knee, capacity and collapse (cli/ramp.cpp).
Action setup_ramp(CLI::App& sub);
/// `openloop probe metastable`: does the system recover after a trigger at a load it served before
/// (cli/probe.cpp).
Action setup_probe(CLI::App& sub);
/// `openloop audit FILE`: another tool's results read back: load model, feedback, coordinated omission
/// (cli/audit.cpp).
Action setup_audit(CLI::App& sub);
/// `openloop trace convert|sort|inspect`: recorded traffic offline (cli/trace.cpp).
Action setup_trace(CLI::App& sub);

}  // namespace openloop::cli
