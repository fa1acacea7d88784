// Rank autocorrelation and effective sample size: the FFT against the direct sum, ties, and independent vs
// AR(1) sequences.
#include "stats/autocorrelation.h"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "core/rng.h"

using namespace openloop::stats;
using openloop::Rng;

namespace {
double normal(Rng& rng) {  // Box-Muller
  return std::sqrt(-2 * std::log(rng.uniform_open0())) * std::cos(2 * 3.141592653589793 * rng.uniform01());
}
std::vector<double> ar1(std::uint64_t seed, std::size_t n, double phi) {
  Rng rng(seed);
  std::vector<double> x(n);
  double v = 0;
  for (auto& e : x) e = v = phi * v + normal(rng);
  return x;
}
}  // namespace

TEST(Autocorrelation, FftEqualsTheDirectSum) {
  const auto x = ar1(3, 300, 0.5);
  const auto fast = autocorrelation(x, 20);
  double mean = 0;
  for (double v : x) mean += v;
  mean /= static_cast<double>(x.size());
  double c0 = 0;
  for (double v : x) c0 += (v - mean) * (v - mean);
  for (std::size_t k = 0; k <= 20; ++k) {
    double ck = 0;
    for (std::size_t i = 0; i + k < x.size(); ++i) ck += (x[i] - mean) * (x[i + k] - mean);
    EXPECT_NEAR(fast[k], ck / c0, 1e-9) << "lag " << k;
  }
}

TEST(Autocorrelation, RanksAverageTies) {
  const std::vector<double> x{10, 30, 20, 30, 5};
  EXPECT_EQ(ranks(x), (std::vector<double>{2, 4.5, 3, 4.5, 1}));
}

TEST(Autocorrelation, ConstantSequenceIsNotCorrelated) {
  const std::vector<double> x(100, 7.0);
  const Autocorrelation a = rank_autocorrelation(x, 10);
  EXPECT_EQ(a.vanish_lag, 1u);
  EXPECT_EQ(a.effective_n, 100.0);
}

// Independent samples: the correlation vanishes within a lag or two and the effective n stays near n; AR(1)
// with φ = 0.9 keeps correlated for tens of lags and is worth far fewer samples (for the Gaussian AR(1),
// n(1 − φ)/(1 + φ) ≈ 5 % of n; ranks are close).
TEST(Autocorrelation, Ar1SamplesGiveASmallerEffectiveNThanIndependentOnes) {
  const std::size_t n = 20000;
  const Autocorrelation iid = rank_autocorrelation(ar1(11, n, 0.0), 2000);
  const Autocorrelation correlated = rank_autocorrelation(ar1(11, n, 0.9), 2000);
  EXPECT_LE(iid.vanish_lag, 3u);
  EXPECT_GT(iid.effective_n, 0.85 * static_cast<double>(n));
  EXPECT_LT(iid.widening(), 1.1);
  EXPECT_TRUE(correlated.vanished);
  EXPECT_GT(correlated.vanish_lag, 10u);
  EXPECT_LT(correlated.effective_n, 0.1 * static_cast<double>(n));
  EXPECT_GT(correlated.effective_n, 0.02 * static_cast<double>(n));
  EXPECT_GT(correlated.widening(), 3.0);
  EXPECT_NEAR(correlated.rho[0], 0.9, 0.03);  // lag 1: φ (a little less on ranks)
}

TEST(Autocorrelation, NotVanishingWithinTheLagsAskedForSaysSo) {
  const Autocorrelation a = rank_autocorrelation(ar1(2, 5000, 0.99), 5);
  EXPECT_FALSE(a.vanished);
  EXPECT_EQ(a.vanish_lag, 6u);
  EXPECT_EQ(a.rho.size(), 5u);
}
