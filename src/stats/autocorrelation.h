// Rank (Spearman) autocorrelation of a sequence at increasing lags, the lag where it vanishes, and the
// effective sample size it implies: how many independent samples a correlated sequence is worth.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace openloop::stats {

/// The dependence of a sequence on its own past, measured on ranks so one huge value cannot dominate.
struct Autocorrelation {
  std::size_t n = 0;
  /// ρ at lags 1, 2, ... (rho[k−1] is lag k): the Pearson correlation of the ranks with the ranks k later
  /// (the usual autocorrelation estimator, over the whole sequence's mean and variance). Computed up to the
  /// lag where it vanished (inclusive) or max_lag.
  std::vector<double> rho;
  /// |ρ| at or below this is indistinguishable from 0 for independent samples: 1.96 / √n.
  double threshold = 0;
  /// The first lag whose |ρ| ≤ threshold: 1 means the samples look independent. When ρ never fell to the
  /// threshold up to max_lag, max_lag + 1 and `vanished` false.
  std::size_t vanish_lag = 1;
  bool vanished = true;
  /// n / τ within [1, n]: the variance of a mean (or of a count below a quantile) from n correlated samples
  /// is that of n_eff independent ones. τ = 1 + 2 Σ_{k < vanish_lag} ρ_k (Geyer 1992's initial-sequence
  /// estimator, truncated at the first insignificant lag), or, when asked and ρ at lag 1 is significant, the
  /// largest of that, the initial monotone sequence and batch means (rank_autocorrelation). n when n < 3.
  double effective_n = 0;
  /// √(n / n_eff): how much wider a confidence interval is than one that assumed independence.
  double widening() const;
};

/// Geyer's (1992) initial monotone sequence estimate of the integrated autocorrelation time τ = 1 + 2 Σ ρ_k
/// from the autocorrelations acf[0] = 1, acf[1], ...: the sums of adjacent pairs Γ_m = ρ_2m + ρ_2m+1 are
/// positive and decreasing for a stationary sequence, so they are summed while positive, each capped by the
/// one before (noise in the far lags neither ends the sum early nor adds to it), τ = −1 + 2 Σ Γ_m. At
/// least 1.
double initial_monotone_tau(std::span<const double> acf);

/// Student's t quantile at 97.5 % for `df` degrees of freedom (≥ 5 for 0.1 % accuracy): the two-sided 95 %
/// multiplier when a variance is itself estimated from df + 1 values.
double student_t_975(double df);

/// The integrated autocorrelation time τ (n_eff = n / τ) by batch means: `x` cut into `batches` consecutive
/// batches of equal length L (the last n mod batches values unused); τ = L · var(batch means) / var(x), the
/// variance of a batch's mean over what independence would give it, times (t/z)² (t: student_t_975 with
/// batches − 1 degrees of freedom), so an interval on n / τ at z has the coverage of a t interval on the
/// batch means. At least 1; 1 for fewer than 2 batches or 2 values a batch.
double batch_means_tau(std::span<const double> x, std::size_t batches);

/// Ranks of `x` (1-based; ties get their average rank).
std::vector<double> ranks(std::span<const double> x);

/// Rank autocorrelation of `x` in its order, lags 1 .. max_lag (clamped to n − 1): the first 4, then 32 by
/// direct sums, O(32 n), and, when they do not settle it, every lag at once by FFT, O(n log n). Allocates.
/// effective_n is the truncated sum's; with `batch_means`, when ρ at lag 1 is significant, the smallest of
/// that, Geyer's initial monotone sequence's (initial_monotone_tau) and the batch means' with the t
/// correction (batch_means_tau over n / (25 τ) batches, 10 to 30: batches much longer than the correlation).
/// Batch means are for a count below a quantile (the indicator of a tail percentile stays correlated over
/// more samples than the ranks show, and its few batches need the t correction); on the ranks of a lightly
/// loaded system they would widen intervals that independence nearly holds for.
Autocorrelation rank_autocorrelation(std::span<const double> x, std::size_t max_lag,
                                     bool batch_means = false);

/// The same on the values of `x` themselves, not their ranks: for a sequence whose ranks are an affine
/// function of it (a 0/1 indicator: the zeros share one rank, the ones another) the result of
/// rank_autocorrelation without its sort. Both compute the first lags by direct sums and every lag by FFT
/// only when ρ has not fallen to the threshold within them (or, with batch means, Geyer's pairs are still
/// positive).
Autocorrelation serial_autocorrelation(std::span<const double> x, std::size_t max_lag,
                                       bool batch_means = false);

/// Autocorrelation of `x` itself (not ranks) at lags 0 .. max_lag, by FFT (zero-padded, so no wrap-around):
/// result[k] = Σ_{i} (x_i − m)(x_{i+k} − m) / Σ (x_i − m)². A constant sequence gives all zeros but
/// result[0] = 1.
std::vector<double> autocorrelation(std::span<const double> x, std::size_t max_lag);

}  // namespace openloop::stats
