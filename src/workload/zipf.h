// Zipf-distributed ranks 1..n with P(k) ∝ 1/k^s, sampled in O(1) without a table by rejection-inversion.
#pragma once

#include <cstdint>

#include "core/rng.h"

namespace openloop::workload {

/// The Zipf (rank-frequency) law over ranks 1..n: P(k) = k^(−s) / H(n, s), H(n, s) = Σ_{i=1..n} i^(−s). Rank
/// 1 is the most popular key; s ≈ 1 is the classic web/cache popularity shape, larger s is more skewed.
/// Sampling is Hörmann & Derflinger's rejection-inversion (ACM TOMACS 6(3), 1996, as in Apache Commons RNG's
/// RejectionInversionZipfSampler): exact for every n and s, O(1) expected (≤ ~1.1 uniform draws and a few
/// log/exp per sample), no table, so n may be as large as 2^53 with no memory cost.
/// Immutable after construction; const methods are thread-safe; sample() uses the caller's Rng and never
/// allocates.
class ZipfDistribution {
 public:
  /// Largest supported n: ranks beyond 2^53 are not exact in a double.
  static constexpr std::uint64_t k_max_n = std::uint64_t{1} << 53;

  /// Preconditions (asserted): 1 ≤ n ≤ k_max_n; s finite, 0 < s ≤ 100.
  ZipfDistribution(std::uint64_t n, double s);

  /// One rank in [1, n].
  std::uint64_t sample(Rng& rng) const;

  std::uint64_t n() const { return m_n; }
  double s() const { return m_s; }

 private:
  double h(double x) const;
  double h_integral(double x) const;
  double h_integral_inverse(double x) const;

  std::uint64_t m_n;
  double m_s;
  double m_h_integral_x1;  ///< H(1.5) − 1
  double m_h_integral_n;   ///< H(n + 0.5)
  double m_squeeze;        ///< 2 − H⁻¹(H(2.5) − h(2)): accepts most samples without evaluating H again
};

}  // namespace openloop::workload
