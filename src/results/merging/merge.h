// Exact merge of several runs' results (threads, runs, hosts) into one: histograms added, never averaged.
#pragma once

#include <string>
#include <vector>

#include "core/error.h"
#include "results/run_results.h"

namespace openloop::results {

/// One run to merge and the name errors and the merged environment use for it (usually its file name).
struct MergeInput {
  std::string name;
  RunResults results;
};

/// How merge treats shards (results files whose plan records a `shard`).
struct MergeOptions {
  bool allow_partial = false;  ///< merge shards that do not cover the plan, labelled partial
  double max_skew_s = 1.0;     ///< refuse shards whose starts differ by more (seconds)
};

/// Plan fields that must be equal for runs to belong together (same request to the same target under the same
/// client policy and workload model). Rates, stages, durations, threads, seeds and connection caps may
/// differ.
inline constexpr const char* k_merge_must_match[] = {
    "target",        "method",    "headers",          "body_bytes", "model",   "arrival",
    "on_saturation", "timeout_s", "success_statuses", "interval_s", "requests"};

/// Merges `inputs` (at least one) into one run:
/// - intervals are aligned by absolute time: input interval i lands in merged interval
///   round((start_unix_s + start_s − t0) / length), t0 being the earliest start; gaps become empty intervals;
/// - counters, flows and histograms (per interval and in total, warm-up counters and session time too) are
///   added exactly;
/// - the per-request breakdown is merged by request name (totals with their histograms, every interval's
///   counts) when every input has one; otherwise the merged run has none;
/// - the measured period is from t0 to the latest end, so rates are over the merged run;
/// - run metadata is added side by side (RunResults::add_metadata): generator stats summed (wall time
///   thread-weighted, so the CPU fraction is the aggregate one), one error example per kind, each input's
///   warnings prefixed with its name;
/// - the verdict is judged again over the merged run, and every input that was INVALID on its own adds a
///   reason; every input's SLOs (the same text once) are judged again over the merged run;
/// - the plan keeps the fields all inputs share, the others listed under plan.differs.<field> = [one per
///   input]; environment.merged_from lists each input (name, start, host, verdict);
/// - scenario files' runs: when every input has the same scenarios (names, in order), each scenario is merged
///   the same way, by name, its offset the smallest of the inputs'; otherwise the merged run has no
///   scenarios and a warning names the inputs that differ.
/// - --observe signals (merge_observed.h): each input's kept under its label ("host [shard 1/2]",
///   "self [b.json]"), never summed; summary.observed.merged says so;
/// - warnings (RunResults::warnings) when the inputs do not overlap in time (the merged period then includes
///   time when not every run was sending) or their plans differ in anything but threads, seed, spin and
///   coalescing (the merged run adds different loads).
/// Errors (usage) name the inputs and the difference: two inputs that are the same run (the same run id and
/// shard index; for files without a run id, the same host, wall-clock start, plan, measured period and
/// counts) would count it twice; a plan field in k_merge_must_match that differs, a missing wall-clock start
/// (needed to align), histograms that cannot be decoded. Interval lengths are the plans' (interval_s must
/// match); a last interval cut short by the end of its run keeps its shorter length.
///
/// Shards of one run (any input's plan has `shard`; results/merging/shard_checks.h says what is refused): intervals
/// align by index instead of wall-clock time (each shard's own interval k lands in merged interval k), the
/// measured period is the longest shard's, the plan is the shared plan without `shard` plus `shards: N` (and
/// `partial` = {missing, missing_share} with options.allow_partial and shards missing), `plan_hash` and
/// `run_id` are the shards'; the verdict names each shard at fault ("shard 2/4 (file): dropped 3.1% ...").
Result<RunResults> merge_results(const std::vector<MergeInput>& inputs, const MergeOptions& options = {});

}  // namespace openloop::results
