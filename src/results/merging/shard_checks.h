// Whether results files are the shards of one run that together cover its plan exactly (openloop merge).
#pragma once

#include <string>
#include <vector>

#include "core/error.h"
#include "results/merging/merge.h"

namespace openloop::results {

/// What the shards cover: N, the indices present (sorted) and the shares that are missing.
struct ShardCoverage {
  std::uint64_t count = 0;
  std::vector<std::uint64_t> present;
  std::vector<std::string> missing;  ///< "shard 1/4 (share 0.25)", one per missing index
  double missing_share = 0;          ///< fraction of the plan's arrivals no input ran
  nlohmann::json weights;
};

/// True when any input records a shard (plan.shard).
bool any_sharded(const std::vector<MergeInput>& inputs);

/// Checks that `inputs` are shards of one run (every error is usage and names the file at fault):
/// every input sharded; the same plan hash and run id; the same N and weights; each index below N and given
/// once; no index missing unless `options.allow_partial`; the same histogram settings (range and precision of
/// the first interval's histograms); starts (environment.start_unix_s) within `options.max_skew_s`.
Result<ShardCoverage> check_shards(const std::vector<MergeInput>& inputs, const MergeOptions& options);

/// "shard 2/4 (file)", as verdict reasons and messages name a shard.
std::string shard_label(const MergeInput& in);

}  // namespace openloop::results
