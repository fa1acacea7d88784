// What `openloop merge` does with the inputs' --observe signals: each input's kept under its own label, never
// added (a host's CPU or a process's RSS is not a sum over generators).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "results/run_results.h"

namespace openloop::results {

/// One input's observations and where its intervals landed in the merged run.
struct ObservedPart {
  std::string label;                    ///< "shard 1/2" for shards, else the input's name (its file)
  const RunResults* results = nullptr;  ///< the input
  std::vector<std::int64_t> landed;     ///< [its interval k] → merged interval index
};

/// Fills r.observed and every r.intervals[i].observed from `parts`: every input's sources and signals under
/// labelled_source(spec, label) ("host [shard 1/2]", "self [shard 2/2]"), each interval's values copied into
/// the merged interval it landed in (NaN where an input has none); the samplers' counts and CPU added;
/// r.observed.merged says what was done and which inputs observed nothing. Nothing when no input observed.
void merge_observed(const std::vector<ObservedPart>& parts, RunResults& r);

}  // namespace openloop::results
