// `run --repeat N`: the repeats' spread per percentile (median, min–max, an order-statistic interval for the
// median across repeats), the rule that says when run-to-run variation dominates the within-run intervals,
// the repeats added into one run, and how all of it is written (JSON, terminal). docs/statistics.md,
// "Repeats".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/run_results.h"

namespace openloop::results {

/// Most repeats `--repeat` accepts (each one is a full run; more belongs in a script).
inline constexpr std::uint64_t k_max_repeats = 100;

/// The seed of repeat `k` (1-based) of a run with seed `base`: a SplitMix64 step of base + k·φ, kept to 53
/// bits (exact as a JSON double), so repeats are independent streams and the whole is reproducible from
/// `base`.
std::uint64_t repeat_seed(std::uint64_t base, std::uint64_t k);

/// A distribution-free interval for the median of the population the repeats' values are drawn from: the k-th
/// smallest and k-th largest of the N values, k the largest rank with coverage 1 − 2·P(Bin(N, ½) < k) ≥ 95 %.
struct MedianInterval {
  double median = 0, min = 0, max = 0;
  double low = 0, high = 0;  ///< order statistics of rank `rank` and N + 1 − rank
  std::size_t rank = 1;
  double confidence = 0;  ///< the interval's exact coverage (0 for N < 2)
  /// False when N < 6: no pair of order statistics reaches 95 % and [min, max] is given with its coverage.
  bool reaches_95 = false;
};

/// The interval for the median of `values` (any order). N = 0 gives zeros; N = 1 a point with coverage 0.
MedianInterval median_interval(std::vector<double> values);

/// One repeat's estimate of a percentile with its within-run 95 % interval (bounds missing: too few samples).
struct RepeatEstimate {
  double value = 0;
  std::optional<double> low, high;
};

/// Do the within-run intervals account for the spread between repeats? For each repeat, the median of the
/// *other* repeats' values is a fresh estimate of the same percentile; if repeats differ only by sampling
/// noise, a repeat's 95 % interval contains it most of the time (≈ 83 % at N = 2, rising toward 95 % as N
/// grows). Run-to-run variation dominates when fewer than half of the repeats' intervals contain it.
struct SpreadJudgement {
  bool judged = false;       ///< false: N < 3, or a repeat's interval is unbounded on a side
  std::string why_not;       ///< when not judged
  std::size_t covering = 0;  ///< repeats whose interval contains the others' median
  std::size_t repeats = 0;
  bool dominated = false;  ///< judged and covering · 2 < repeats
  /// (max − min of the repeats' values) / the median within-run interval width: how many "typical intervals"
  /// the repeats span. Reported beside the rule, not judged. 0 when not judged.
  double spread_over_width = 0;
};

/// Judges `estimates` (one per repeat) by the rule above.
SpreadJudgement judge_spread(const std::vector<RepeatEstimate>& estimates);

/// One percentile across the repeats (values in nanoseconds).
struct PercentileSpread {
  double percentile = 0;
  std::vector<RepeatEstimate> estimates;  ///< one per repeat, in order
  MedianInterval across;
  SpreadJudgement judgement;
};

/// What one repeat was besides its results: its seed and what was done to the lab before it.
struct RepeatContext {
  std::uint64_t seed = 0;
  /// "none" (not a lab, or the first repeat), "done", or "failed"; `reset_detail` says what was done or why
  /// it failed.
  std::string reset = "none";
  std::string reset_detail;
  double cooldown_s = 0;  ///< idle time actually waited before it
};

/// The repeats of one `run --repeat` and what they add up to.
struct RepeatSet {
  std::uint64_t planned = 0;  ///< N as asked
  double cooldown_s = 0;      ///< --cooldown
  std::vector<RunResults> runs;
  std::vector<RepeatContext> contexts;  ///< one per run
  bool lab = false;                     ///< a lab's control endpoint answered: it was reset between repeats
};

/// p50, p90, p99 and p99.9 of the response time across the repeats: each repeat's value and within-run
/// interval (its self-checks' intervals, else estimated from its histogram on n), the median interval and the
/// judgement.
std::vector<PercentileSpread> percentile_spreads(const std::vector<RunResults>& runs);

/// True when any judged percentile says run-to-run variation dominates.
bool variation_dominates(const std::vector<PercentileSpread>& spreads);
inline constexpr const char* k_variation_flag = "run-to-run variation dominates: repeat, don't lengthen";

/// The repeats added exactly as one run: counters and histograms summed (RunResults::add), measured time
/// summed, run metadata added one after another (RunResults::add_metadata: generator stats, error examples,
/// warnings prefixed "repeat k: "), intervals laid end to end at their wall-clock offsets from the first
/// repeat, INVALID when any repeat was (each reason prefixed "repeat k: "), interrupted when the last one
/// was. Context (info, environment) from the first repeat. Precondition: at least one run.
RunResults add_repeats(const std::vector<RunResults>& runs);

/// The `repeats` array and `repeat_summary` object the results file gains.
nlohmann::json repeats_json(const RepeatSet& set, const std::vector<PercentileSpread>& spreads);
/// repeats_json's parts, for a document that keeps its repeats in its own form (a ramp's steps): the
/// `repeat_summary` object, and repeat `k`'s (0-based) `response_time_intervals` and context fields (repeat,
/// seed, cooldown_s, lab_reset).
nlohmann::json repeat_summary_json(const RepeatSet& set, const std::vector<PercentileSpread>& spreads);
nlohmann::json repeat_entry_json(const RepeatSet& set, const std::vector<PercentileSpread>& spreads,
                                 std::size_t k);
/// One percentile's line across `runs` repeats (no indent, no newline): "p99 median 12.1 ms, range 11.0 ms –
/// 14.2 ms, median in [...] at 75.0 % (too few repeats for 95 %: 3 needs 6); 2 of 3 within-run intervals
/// cover the others' median".
std::string render_spread(const PercentileSpread& s, std::size_t runs);
/// The terminal block printed after the combined run's summary: one line per repeat, one per percentile, the
/// flag when it fires.
std::string render_repeats(const RepeatSet& set, const std::vector<PercentileSpread>& spreads);

}  // namespace openloop::results
