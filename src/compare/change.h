// How one number moved between a baseline run and a candidate run, with a confidence interval: a latency
// percentile (order-statistic bounds from each run's histogram), a rate (ok/s, completed/s) and a fraction of
// intended requests (errors, timeouts, drops).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "hdr/histogram.h"
#include "results/judging/run_checks.h"
#include "stats/quantile_ci.h"

namespace openloop::compare {

/// Which way a change went, judged on its confidence interval: `increased` when the whole interval is above
/// no change, `decreased` when it is below, `unchanged` when it holds no change, `unknown` when there are too
/// few samples to bound the side that would decide.
enum class Direction : unsigned char { unchanged, increased, decreased, unknown };
const char* to_string(Direction d);

/// The normal quantile z with P(|Z| ≤ z) = `two_sided` (0.95 → 1.960); `two_sided` in (0, 1).
double normal_z(double two_sided);

/// The z of each run's own interval so that the intervals of every compared quantity hold together with
/// probability `confidence` (in (0, 1)): 2 × `quantities` intervals (one per run each), Bonferroni, so each
/// is at 1 − (1 − confidence) / (2 × quantities). `quantities` ≥ 1.
double per_run_z(double confidence, int quantities);

/// One latency percentile of both runs and its relative change candidate / baseline − 1.
struct QuantileChange {
  double percentile = 0;                   ///< e.g. 99.9
  stats::QuantileEstimate baseline;   ///< value and order-statistic bounds (ns) of the baseline
  stats::QuantileEstimate candidate;  ///< the same for the candidate
  /// candidate.value / baseline.value − 1 (0.18 = +18 %); nullopt when either run has no samples (or the
  /// baseline's value is 0).
  std::optional<double> change;
  /// The interval of the relative change (compare_quantile: both runs' errors in quadrature on the log
  /// ratio). nullopt on a side a run cannot bound.
  std::optional<double> low, high;
  Direction direction = Direction::unknown;
};

/// Student's t quantile with `dof` ≥ 1 degrees of freedom at the two-sided level of the normal quantile `z`
/// (Cornish–Fisher expansion; within 1 % of the table from 3 degrees of freedom).
double student_t(double z, int dof);

/// How much a percentile moves between a run's intervals: the standard deviation of its logarithm over the
/// intervals that resolve it (n·(1 − p) ≥ 1), and how many there were.
struct BatchSpread {
  int batches = 0;
  double log_sd = 0;
};
/// nullopt with fewer than 3 such intervals.
std::optional<BatchSpread> batch_spread(const std::vector<hdr::Histogram>& intervals, double percentile);

/// The χ² quantile with `dof` ≥ 1 degrees of freedom at lower-tail probability `p` in (0, 1) (Wilson–Hilferty;
/// within 1 % of the table from 3 degrees of freedom at the upper tails used here).
double chi_square_quantile(double p, int dof);

/// What one run's samples say about their own dependence, for its percentile intervals.
struct RunSamples {
  const hdr::Histogram* response = nullptr;                ///< the measured response times (not null)
  const std::vector<hdr::Histogram>* intervals = nullptr;  ///< its one-second histograms, or null
  /// The run's own independence self-check (results::RunChecks::independence), or null when the file has
  /// none (an .hlog, an older results file): then the dispersion of its seconds decides (batches_disagree).
  const results::IndependenceCheck* independence = nullptr;
};

/// True when the percentile moves between the run's seconds more than their samples allow: the χ² statistic
/// Σ (ln q_i − mean)² / s_i², with s_i each second's own order-statistic standard error of ln q_i on its
/// effective sample size (n_i · `effective_fraction`, in (0, 1]), is above the χ²(m − 1) quantile at 99 %.
/// False with fewer than 3 seconds that resolve the percentile.
bool batches_disagree(const std::vector<hdr::Histogram>& intervals, double percentile,
                      double effective_fraction = 1.0);

/// How one run's percentile interval was made.
enum class IntervalBasis : unsigned char {
  independent,  ///< order statistics on n: the samples are independent (or nothing tells otherwise)
  effective,    ///< order statistics on the self-check's effective n (correlated samples)
  batch_means,  ///< widened further to the batch-means interval of its seconds (they disagree beyond that n)
};
const char* to_string(IntervalBasis b);

/// One run's percentile with its interval at `z`: the order-statistic interval (stats::estimate_quantile) on
/// the effective sample size of the run's independence check (n when it has none). Only when the seconds
/// disagree beyond what that effective n explains (batches_disagree with the check's effective fraction:
/// correlation over longer than the check sees, a stall, a drifting machine) is it widened to the batch-means
/// interval value · exp(±t·sd/√m) of the run's seconds, when that is wider. Otherwise the order-statistic
/// interval stands: batch means over a few seconds would only add the noise of estimating a spread from 3–5
/// numbers (Student's t on 3 degrees of freedom at a Bonferroni level is several times z). A side the order
/// statistics cannot bound stays unbounded.
/// `basis`, when given, receives how the interval was made.
stats::QuantileEstimate estimate_run_quantile(const RunSamples& run, double percentile, double z,
                                              IntervalBasis* basis = nullptr);
/// The same for a run known only by its histograms (no self-check: the seconds decide).
stats::QuantileEstimate estimate_run_quantile(const hdr::Histogram& total,
                                              const std::vector<hdr::Histogram>* intervals,
                                              double percentile, double z);

/// Compares `percentile` (in (0, 100)) of two runs at the normal quantile `z` of the change's interval (for
/// several quantities at once, z of 1 − (1 − confidence) / quantities: Bonferroni). Each run's estimate
/// (estimate_run_quantile at `z`, shown as the run's interval) gives the standard error of its log percentile
/// on each side, half-width / z; the change's interval is on the log of the ratio, centre ln(c / b),
/// half-widths z·√(s_c² + s_b²) (the candidate's low side with the baseline's high side, and the reverse):
/// the two runs are independent, so their errors add in quadrature, not end to end. A change is significant
/// when that interval excludes 0 and the two values lie in different histogram buckets (bucket rounding
/// never makes a change).
QuantileChange compare_quantile(const RunSamples& baseline, const RunSamples& candidate, double percentile,
                                double z, IntervalBasis* baseline_basis = nullptr,
                                IntervalBasis* candidate_basis = nullptr);
/// The same for runs known only by their histograms (and their seconds, when given).
QuantileChange compare_quantile(const hdr::Histogram& baseline, const hdr::Histogram& candidate,
                                double percentile, double z,
                                const std::vector<hdr::Histogram>* baseline_intervals = nullptr,
                                const std::vector<hdr::Histogram>* candidate_intervals = nullptr);

/// A rate (requests per second) of both runs and its relative change.
struct RateChange {
  double baseline = 0, candidate = 0;  ///< requests/s
  std::optional<double> change;        ///< candidate / baseline − 1; nullopt when baseline is 0
  std::optional<double> low, high;     ///< interval of the relative change at `z`
  Direction direction = Direction::unknown;
};

/// What a rate counts over a run: `count` requests (e.g. ok) of `trials` intended, over `seconds`.
struct RateSample {
  std::uint64_t count = 0, trials = 0;
  double seconds = 0;
  bool poisson =
      false;  ///< the arrivals were Poisson: the number intended varies too (constant: it does not)
};

/// The relative change of count / seconds, with a normal interval on its logarithm at `z` (two-sided): the
/// variance of each run's log rate is (1 − p̃) / (trials · p̃) for its fraction p̃ = (count + 1) / (trials + 2)
/// (the binomial count of successes; the pseudo-counts keep an all-ok run from having no variance), plus 1 /
/// trials for Poisson arrivals. unknown when a run has no trials or no time.
RateChange compare_rate(const RateSample& baseline, const RateSample& candidate, double z);

/// A fraction of intended requests (errors, timeouts, drops) of both runs and its change in points.
struct FractionChange {
  double baseline = 0, candidate = 0;  ///< fractions in [0, 1]
  std::optional<double> change;     ///< candidate − baseline (0.001 = +0.1 point); nullopt without trials
  std::optional<double> low, high;  ///< interval of the difference at `z`
  Direction direction = Direction::unknown;
};

/// The difference of two binomial fractions count / trials with the Agresti–Caffo interval at `z` (one
/// success and one failure added to each run for the interval's variance and centre): it behaves with zero
/// counts, where the plain Wald interval claims certainty.
FractionChange compare_fraction(std::uint64_t baseline_count, std::uint64_t baseline_trials,
                                std::uint64_t candidate_count, std::uint64_t candidate_trials, double z);

}  // namespace openloop::compare
