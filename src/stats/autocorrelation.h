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
  /// n / (1 + 2 Σ_{k < vanish_lag} ρ_k), within [1, n]: the variance of a mean (or of a count below a
  /// quantile) from n correlated samples is that of n_eff independent ones (Geyer 1992's initial-sequence
  /// estimator, truncated at the first insignificant lag). n when n < 3.
  double effective_n = 0;
  /// √(n / n_eff): how much wider a confidence interval is than one that assumed independence.
  double widening() const;
};

/// Ranks of `x` (1-based; ties get their average rank).
std::vector<double> ranks(std::span<const double> x);

/// Rank autocorrelation of `x` in its order, lags 1 .. max_lag (clamped to n − 1); every lag at once by FFT,
/// O(n log n). Allocates.
Autocorrelation rank_autocorrelation(std::span<const double> x, std::size_t max_lag);

/// Autocorrelation of `x` itself (not ranks) at lags 0 .. max_lag, by FFT (zero-padded, so no wrap-around):
/// result[k] = Σ_{i} (x_i − m)(x_{i+k} − m) / Σ (x_i − m)². A constant sequence gives all zeros but
/// result[0] = 1.
std::vector<double> autocorrelation(std::span<const double> x, std::size_t max_lag);

}  // namespace openloop::stats
