// What makes shards one run: the plan hash (the plan every shard split, without its own share) and the run
// id.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "results/run_results.h"

namespace openloop::results {

/// SHA-256 (hex) of `plan` as canonical JSON (keys sorted, no spaces) without the shard's own fields
/// (`shard`, and a merge's `shards`, `partial`) and the host's (`threads`, `spin_below_us`), at the top and
/// in each element of a `scenarios` array (a plan file's): every shard of one plan has the same hash, whichever
/// share it ran and on whatever machine.
std::string plan_hash(const nlohmann::json& plan);
/// `info.plan_hash` when the file recorded one, else plan_hash(info.plan).
std::string plan_hash_of(const RunInfo& info);

/// A run id all shards derive alike without talking: "p" + 16 hex digits of SHA-256(plan hash, start time
/// text).
std::string derived_run_id(const std::string& plan_hash, const std::string& start_at);
/// A random run id: "r" + 16 hex digits.
std::string random_run_id();

/// The shard this run was, from `plan.shard` ({"index", "count", "weights", "share"}); count 0 when
/// unsharded.
struct ShardInfo {
  std::uint64_t index = 0, count = 0;
  nlohmann::json weights;  ///< as recorded (an array), null when absent
  double share = 0;        ///< the fraction of the plan's arrivals this shard ran
};
ShardInfo shard_of(const RunInfo& info);

}  // namespace openloop::results
