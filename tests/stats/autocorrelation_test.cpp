// Rank autocorrelation and effective sample size: the FFT against the direct sum, ties, and independent vs
// AR(1) sequences.
#include "stats/autocorrelation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
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
  // Lags up to 20, and up to the whole sequence: the zero padding (to n + the largest lag, rounded up to a
  // power of two) must leave no product wrapped around, including where n + max_lag is a power of two
  // exactly; and the two real transforms, each done by a complex FFT of half the size, must agree at every
  // size down to 2.
  const std::pair<std::size_t, std::size_t> cases[] = {
      {300, 20}, {300, 75}, {300, 212}, {300, 299}, {256, 255}, {257, 256}, {2, 1}, {3, 2}, {5, 1}};
  for (const auto& [n, max_lag] : cases) {
    const auto x = ar1(3, n, 0.5);
    const auto fast = autocorrelation(x, max_lag);
    ASSERT_EQ(fast.size(), max_lag + 1);
    double mean = 0;
    for (double v : x) mean += v;
    mean /= static_cast<double>(x.size());
    double c0 = 0;
    for (double v : x) c0 += (v - mean) * (v - mean);
    for (std::size_t k = 0; k <= max_lag; ++k) {
      double ck = 0;
      for (std::size_t i = 0; i + k < x.size(); ++i) ck += (x[i] - mean) * (x[i + k] - mean);
      EXPECT_NEAR(fast[k], ck / c0, 1e-9) << "n " << n << ", lag " << k << " of " << max_lag;
    }
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

// No needless widening: on independent samples the lag-1 test finds no correlation in about 95 % of sequences
// and n_eff stays n; the estimators that widen (Geyer's initial monotone sequence, batch means with the t
// correction, asked for here) run only on the others. Over 200 seeded sequences of 1,000, at most 10 % are
// flagged (widening ≥ 1.1) and the median widening is 1.
TEST(Autocorrelation, IndependentSamplesAreRarelyWidened) {
  int flagged = 0, widened = 0;
  std::vector<double> widening;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    const Autocorrelation a = rank_autocorrelation(ar1(seed, 1000, 0.0), 250, true);
    widening.push_back(a.widening());
    flagged += a.widening() >= 1.1 ? 1 : 0;
    widened += a.widening() > 1.0 ? 1 : 0;
  }
  std::sort(widening.begin(), widening.end());
  std::printf("independent: %d of 200 widened, %d flagged (≥ 1.1); median %.3f, max %.3f\n", widened, flagged,
              widening[100], widening.back());
  EXPECT_LE(flagged, 20);
  EXPECT_DOUBLE_EQ(widening[100], 1.0);
}

// Batch means see correlation the truncated sum misses: for AR(1) with φ = 0.7 the integrated autocorrelation
// time is (1 + φ)/(1 − φ) = 5.67; over 10 batches of 1,000 the estimate times the t correction (2.262/1.96)²
// = 1.33 lands near 7.5 (within the chi-square spread of 9 degrees of freedom), and independent values give
// about 1.33.
TEST(Autocorrelation, BatchMeansEstimateTheAutocorrelationTime) {
  double ar = 0, iid = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    ar += batch_means_tau(ar1(seed, 10000, 0.7), 10) / 20;
    iid += batch_means_tau(ar1(seed, 10000, 0.0), 10) / 20;
  }
  EXPECT_NEAR(ar, 5.67 * 1.332, 1.5);
  EXPECT_NEAR(iid, 1.332, 0.35);
  EXPECT_NEAR(student_t_975(9), 2.262, 0.003);
  EXPECT_NEAR(student_t_975(29), 2.045, 0.002);
}

// Geyer's initial monotone sequence on a known autocorrelation: ρ_k = φ^k sums to τ = (1 + φ)/(1 − φ);
// noise after the pairs turn negative is not added.
TEST(Autocorrelation, InitialMonotoneSequenceSumsThePositivePairs) {
  // (on AR(1) with φ = 0.5 through rank_autocorrelation: τ = 3 from every estimator; batch means add the t
  // correction, so n_eff comes out a little under n / 3)
  const Autocorrelation a = rank_autocorrelation(ar1(4, 20000, 0.5), 2000, true);
  EXPECT_GT(a.effective_n, 20000 / 3.0 / 1.6);
  EXPECT_LT(a.effective_n, 20000 / 3.0 * 1.1);
  std::vector<double> acf(60);
  for (std::size_t k = 0; k < acf.size(); ++k) acf[k] = std::pow(0.5, static_cast<double>(k));
  EXPECT_NEAR(initial_monotone_tau(acf), 3.0, 1e-6);
  const std::vector<double> noisy{1, 0.5, 0.2, -0.3, 0.4, 0.4};  // pair 1 is -0.1: stop there
  EXPECT_NEAR(initial_monotone_tau(noisy), -1 + 2 * 1.5, 1e-12);
}

namespace {
// The estimator from every lag at once (the FFT), as it was before the first lags were summed directly: the
// oracle for the staged computation.
Autocorrelation from_every_lag(const std::vector<double>& r, std::size_t max_lag, bool batch_means) {
  Autocorrelation a;
  a.n = r.size();
  a.threshold = 1.96 / std::sqrt(static_cast<double>(a.n));
  max_lag = std::clamp<std::size_t>(max_lag, 1, a.n - 1);
  const std::vector<double> acf = autocorrelation(r, max_lag);
  double sum = 0;
  a.vanished = false;
  for (std::size_t k = 1; k <= max_lag && !a.vanished; ++k) {
    a.rho.push_back(acf[k]);
    if (std::abs(acf[k]) <= a.threshold) {
      a.vanished = true;
      a.vanish_lag = k;
    } else {
      sum += acf[k];
    }
  }
  if (!a.vanished) a.vanish_lag = max_lag + 1;
  double tau = 1 + 2 * sum;
  if (a.vanish_lag > 1 && batch_means) {
    tau = std::max(tau, initial_monotone_tau(acf));
    const auto batches =
        static_cast<std::size_t>(std::clamp(static_cast<double>(a.n) / (25 * tau), 10.0, 30.0));
    tau = std::max(tau, batch_means_tau(r, batches));
  }
  a.effective_n = std::clamp(static_cast<double>(a.n) / tau, 1.0, static_cast<double>(a.n));
  return a;
}

void expect_same(const Autocorrelation& got, const Autocorrelation& want, const std::string& what) {
  EXPECT_EQ(got.vanish_lag, want.vanish_lag) << what;
  EXPECT_EQ(got.vanished, want.vanished) << what;
  ASSERT_EQ(got.rho.size(), want.rho.size()) << what;
  for (std::size_t k = 0; k < got.rho.size(); ++k)
    EXPECT_NEAR(got.rho[k], want.rho[k], 1e-9) << what << " lag " << k + 1;
  EXPECT_NEAR(got.effective_n, want.effective_n, 1e-6 * want.effective_n) << what;
}
}  // namespace

// The first 4, then 32 lags are summed directly and every lag is transformed only when they do not settle it:
// the same result as from every lag, whether it settles within them (independent, φ 0.5), just beyond them
// (φ 0.9: ρ vanishes near lag 30–40) or far beyond (φ 0.99), with and without batch means, and on indicators.
TEST(Autocorrelation, TheFirstLagsDirectlyGiveWhatEveryLagGives) {
  std::size_t beyond = 0;
  for (const double phi : {0.0, 0.5, 0.9, 0.95, 0.99}) {
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      const auto x = ar1(seed, 5000, phi);
      const std::string what = "phi " + std::to_string(phi) + " seed " + std::to_string(seed);
      const Autocorrelation plain = rank_autocorrelation(x, x.size() / 4);
      expect_same(plain, from_every_lag(ranks(x), x.size() / 4, false), what);
      beyond += plain.vanish_lag > 32 ? 1 : 0;
      expect_same(rank_autocorrelation(x, x.size() / 4, true), from_every_lag(ranks(x), x.size() / 4, true),
                  what + " batch means");
      std::vector<double> below(x.size());
      for (std::size_t i = 0; i < x.size(); ++i) below[i] = x[i] < 1.0 ? 1.0 : 0.0;
      expect_same(serial_autocorrelation(below, below.size() / 4, true),
                  from_every_lag(ranks(below), below.size() / 4, true), what + " indicator");
    }
  }
  EXPECT_GE(beyond, 4U);  // the FFT path was taken, not only the direct one
}

// An indicator's ranks are an affine function of it (its zeros share one rank, its ones another), so its
// autocorrelation on the values is that on the ranks, without the sort.
TEST(Autocorrelation, AnIndicatorsValuesCorrelateAsItsRanks) {
  for (const double phi : {0.0, 0.7, 0.97}) {
    const auto x = ar1(9, 4000, phi);
    std::vector<double> below(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) below[i] = x[i] < 0.5 ? 1.0 : 0.0;
    expect_same(serial_autocorrelation(below, 1000, true), rank_autocorrelation(below, 1000, true),
                "phi " + std::to_string(phi));
  }
}
