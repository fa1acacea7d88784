// `openloop run --repeat N [--cooldown D]`: the plan run N times, each repeat kept, the spread judged.
#pragma once

#include <cstdint>

#include <CLI/CLI.hpp>

#include "cli/run_options.h"
#include "core/error.h"
#include "core/time.h"

namespace openloop::cli {

/// --repeat and --cooldown as validated.
struct RepeatSettings {
  std::uint64_t count = 0;  ///< 0: no --repeat (one run); else 2..results::k_max_repeats
  Nanos cooldown{0};        ///< idle time between repeats
};

/// Registers --repeat and --cooldown (run only).
void add_repeat_options(CLI::App& sub, RunOptions& o);
/// Validates them: N a whole number 2..100, the cooldown a duration up to 1h, nothing --repeat does not
/// combine with yet (a scenario file, --until, --abort-on-slo, --metrics-listen, --observe, --log-requests,
/// --start-at, --shard). Errors (usage) name the flag and what is accepted.
Result<RepeatSettings> parse_repeat_options(const RunOptions& o);
/// Runs the repeats (s.count ≥ 2) through the pipeline; returns the exit code: the worst of the repeats'
/// (130 when interrupted, whatever ran is written).
int run_repeated(const RunOptions& o, const RepeatSettings& s);

}  // namespace openloop::cli
