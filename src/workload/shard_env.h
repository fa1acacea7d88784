// Which shard this process is: --shard I/N, or the environment an engine (Kubernetes, Slurm, MPI) sets.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"

namespace openloop::workload {

/// Environment variables by name (only the ones detect_shard reads need be present).
using Environment = std::map<std::string, std::string, std::less<>>;

/// A shard index and count, and where they came from ("--shard 1/4", "SLURM_PROCID=1 SLURM_NTASKS=4").
struct ShardAssignment {
  unsigned index = 0;
  unsigned count = 1;
  std::string source;
};

/// The largest shard count accepted.
inline constexpr unsigned k_max_shards = 65536;

/// Parses "I/N" (0-based index I below count N, 1 ≤ N ≤ k_max_shards); error (usage) names `what`.
Result<ShardAssignment> parse_shard(std::string_view text, std::string_view what);

/// The shard from `flag` (the --shard value; empty: not given) and `env`, sources in this order:
/// --shard, OPENLOOP_SHARD=I/N, JOB_COMPLETION_INDEX + OPENLOOP_SHARD_COUNT (Kubernetes Indexed Job),
/// SLURM_PROCID + SLURM_NTASKS, OMPI_COMM_WORLD_RANK + OMPI_COMM_WORLD_SIZE, PMI_RANK + PMI_SIZE.
/// An engine's pair counts only when both halves are set and its size is above 1 (a single task or a
/// Kubernetes Job that does not set OPENLOOP_SHARD_COUNT is not sharded); OPENLOOP_SHARD_COUNT without
/// JOB_COMPLETION_INDEX is refused. The first source present wins, and every other one present must agree.
/// Errors (usage): two sources that disagree (naming both), a malformed value (naming the variable and what
/// is accepted). std::nullopt: no source, the run is not sharded.
Result<std::optional<ShardAssignment>> detect_shard(std::string_view flag, const Environment& env);

/// The variables detect_shard reads, from this process's environment.
Environment shard_environment();

}  // namespace openloop::workload
