// Rejection-inversion sampling of the Zipf law (Hörmann & Derflinger 1996), with the numerically stable
// helpers.
#include "workload/zipf.h"

#include <cassert>
#include <cmath>

namespace openloop::workload {
namespace {

// log1p(x) / x, continued smoothly through x = 0.
double log1p_over_x(double x) {
  if (std::fabs(x) > 1e-8) return std::log1p(x) / x;
  return 1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x));
}

// expm1(x) / x, continued smoothly through x = 0.
double expm1_over_x(double x) {
  if (std::fabs(x) > 1e-8) return std::expm1(x) / x;
  return 1.0 + x * 0.5 * (1.0 + x / 3.0 * (1.0 + 0.25 * x));
}

}  // namespace

ZipfDistribution::ZipfDistribution(std::uint64_t n, double s) : m_n(n), m_s(s) {
  assert(n >= 1 && n <= k_max_n);
  assert(std::isfinite(s) && s > 0.0 && s <= 100.0);
  m_h_integral_x1 = h_integral(1.5) - 1.0;
  m_h_integral_n = h_integral(static_cast<double>(n) + 0.5);
  m_squeeze = 2.0 - h_integral_inverse(h_integral(2.5) - h(2.0));
}

// The hat function h(x) = x^(−s), which equals P(k)·H(n, s) at integers.
double ZipfDistribution::h(double x) const {
  return std::exp(-m_s * std::log(x));
}

// H(x) = ∫ h = (x^(1−s) − 1) / (1 − s), or log x when s = 1, in a form without cancellation near s = 1.
double ZipfDistribution::h_integral(double x) const {
  const double log_x = std::log(x);
  return expm1_over_x((1.0 - m_s) * log_x) * log_x;
}

double ZipfDistribution::h_integral_inverse(double x) const {
  double t = x * (1.0 - m_s);
  if (t < -1.0) t = -1.0;  // rounding can push t just below −1, where log1p is undefined
  return std::exp(log1p_over_x(t) * x);
}

std::uint64_t ZipfDistribution::sample(Rng& rng) const {
  // Invert H at a uniform point of [H(1.5) − 1, H(n + 0.5)], round to the nearest rank, and accept it when
  // the point falls under k's own bar of the histogram (the squeeze decides most cases without computing H(k
  // + ½)).
  const double max_rank = static_cast<double>(m_n);
  while (true) {
    const double u = m_h_integral_n + rng.uniform01() * (m_h_integral_x1 - m_h_integral_n);
    const double x = h_integral_inverse(u);
    double k = std::floor(x + 0.5);
    if (k < 1.0) k = 1.0;
    if (k > max_rank) k = max_rank;
    if (k - x <= m_squeeze || u >= h_integral(k + 0.5) - h(k)) return static_cast<std::uint64_t>(k);
  }
}

}  // namespace openloop::workload
