// `run --replay FILE --target URL`: the flags of a replayed trace and the plan they build (the trace read
// once, every line checked, before any load).
#pragma once

#include <CLI/CLI.hpp>

#include "cli/run_options.h"
#include "core/error.h"
#include "engine/run_plan.h"

namespace openloop::cli {

/// Registers --replay, --replay-format, --replay-log-format, --speed, --loop, --max-gap, --from, --to,
/// --reorder-window, --keep-header and --skip-bad (help group "Replay").
void add_replay_options(CLI::App& sub, RunOptions& o);

/// The request and workload of a replay into `plan`: --target's host as the URL, the trace scanned
/// (workload::scan_replay), the run's length (the trace's span after --speed, or --duration with --loop; the
/// warm-up its leading part), the trace's mean rate as the profile (open model), -H added to every record.
/// Errors (usage, nothing sent), each naming the flag and what is accepted: a URL, --targets, -X, --body,
/// --rate, --stages, --vus, --session-rate, --until or --duration without --loop given with --replay; no
/// --target; a bad --replay-format, --speed, --max-gap, --from, --to or --reorder-window; the trace's own
/// errors (file:line); --loop on a trace of fewer than two records; a warm-up as long as the replay.
Result<void> build_replay(const RunOptions& o, engine::RunPlan& plan);

}  // namespace openloop::cli
