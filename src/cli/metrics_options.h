// The command line's side of `--metrics-listen`: the flags, the endpoint started from them (the endpoint itself is
// report::MetricsServer) and a plan's offered rate as a scrape shows it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/error.h"
#include "core/time.h"
#include "engine/run_plan.h"
#include "report/metrics/metrics_server.h"

namespace openloop::cli {

using report::MetricsServer;

struct RunOptions;

/// `plan`'s offered rate over its measured period (report::OfferedRate: its profile, the warm-up before 0),
/// as a scrape's openloop_target_rate shows it; empty for a closed or pacing model (no arrival schedule).
report::OfferedRate offered_rate_of(const engine::RunPlan& plan);

/// --metrics-listen and --metrics-linger on a command other than run (ramp, probe), serving `what`.
void add_metrics_options(CLI::App& sub, RunOptions& o, const std::string& what);

/// --metrics-linger of `o`: a duration, refused (usage) without --metrics-listen.
Result<Nanos> parse_metrics_linger(const RunOptions& o);
/// The endpoint of --metrics-listen (nullptr without it), announced on stderr as `command`'s unless quiet.
Result<std::unique_ptr<MetricsServer>> start_metrics(const RunOptions& o,
                                                     std::vector<report::MetricsContext> parts,
                                                     const std::string& command);

}  // namespace openloop::cli
