// A Zipf exponent fitted to observed key frequencies by maximum likelihood (`openloop trace fit`).
#pragma once

#include <cstdint>
#include <optional>
#include <span>

namespace openloop::workload {

/// A Zipf law fitted to key counts: P(k) ∝ k^(−s) over ranks 1..n, the ranks being the keys ordered by their
/// observed count (most first).
struct ZipfFit {
  std::uint64_t n = 0;      ///< distinct keys observed: the fitted law's N (a lower bound of the true one)
  double s = 0;             ///< the exponent, in [k_min_s, k_max_s]
  bool s_at_bound = false;  ///< the likelihood's maximum lies at or beyond a bound of the search range
  std::uint64_t observations = 0;  ///< Σ counts
  double ks_distance = 0;          ///< max over ranks of |empirical CDF − fitted CDF| (0 = a perfect fit)
  double top_percent_share = 0;    ///< share of observations taken by the hottest ceil(1 % of n) keys
};

inline constexpr double k_zipf_fit_min_s = 0.01;
inline constexpr double k_zipf_fit_max_s = 20.0;

/// Fits s by maximum likelihood with n = counts.size(): the log-likelihood −s·Σ log r_i − m·log H(n, s) is
/// concave in s, so its maximum is where the mean log-rank of the observations equals the law's E[log k],
/// found by bisection (60 steps) on [k_zipf_fit_min_s, k_zipf_fit_max_s]. `counts` may be in any order (zeros
/// are ignored). O(n log n) for the ranking plus O(n) per bisection step. nullopt: fewer than two distinct
/// keys observed (nothing to fit).
std::optional<ZipfFit> fit_zipf(std::span<const std::uint64_t> counts);

}  // namespace openloop::workload
