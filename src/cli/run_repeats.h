// `openloop run --repeat N [--cooldown D]`: the plan run N times, each repeat kept, the spread judged.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/run_options.h"
#include "core/error.h"
#include "core/time.h"
#include "engine/run_plan.h"
#include "lab/control_client.h"
#include "results/merging/repeats.h"

namespace openloop::cli {

struct GrpcCall;

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
/// --repeat's N as typed: a whole number from 2 to results::k_max_repeats; errors (usage) name --repeat.
Result<std::uint64_t> parse_repeat_count(const std::string& text);
/// The lab at the target's origin (its GET /_lab/config answers), else nullopt: then repeats need no reset.
std::optional<lab::ControlClient> find_lab(const engine::RunPlan& plan);
/// Before a repeat: restarts the lab's model, waits until the previous repeat's requests have drained from it
/// (at most 30 s, or until `stop`), and restarts it again; says in `c` what was done or why it failed.
void reset_lab(const lab::ControlClient& lab, const std::atomic<int>& stop, results::RepeatContext& c);
/// Runs the repeats (s.count ≥ 2) through the pipeline; returns the exit code: the worst of the repeats'
/// (130 when interrupted, whatever ran is written). With `grpc`, each repeat's plan makes that call (prepared
/// once, before the first: cli/grpc_options.h).
int run_repeated(const RunOptions& o, const RepeatSettings& s, const GrpcCall* grpc = nullptr);

}  // namespace openloop::cli
