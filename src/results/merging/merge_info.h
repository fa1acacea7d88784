// The merged run's context (results/merging/merge.h): plan, identity, wall-clock start and environment.
#pragma once

#include <vector>

#include "results/merging/merge.h"
#include "results/merging/shard_checks.h"

namespace openloop::results {

/// The first input's RunInfo, made the merged run's: measured from `t0` (Unix seconds) for `measured_s`, the
/// offered rate and users summed, the longest warm-up; the plan keeps the fields every input shares and lists
/// the others under plan.differs.<field> (one value per input); environment.merged_from lists each input
/// (file, start, duration, host, valid) beside merge_alignment_s (`worst_offset_s`). The run id is kept when
/// every input has the same. Shards (`shards` not null): the shared plan without `shard`, with `shards: N`
/// (and `partial` when some are missing), the shards' plan hash, run id and --start-at (worst lag and clock
/// bound).
RunInfo merged_info(const std::vector<MergeInput>& inputs, double t0, double measured_s,
                    double worst_offset_s, const ShardCoverage* shards);

}  // namespace openloop::results
