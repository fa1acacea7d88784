// The Zipf fit: samples of ZipfDistribution with a known exponent give it back by maximum likelihood, exact
// counts give it back closely, equal counts sit at the search's lower bound, one key is no fit.
#include "workload/zipf_fit.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "workload/zipf.h"

namespace openloop::workload {
namespace {

std::vector<std::uint64_t> sample_counts(std::uint64_t n, double s, int samples, std::uint64_t seed) {
  ZipfDistribution zipf(n, s);
  Rng rng(seed);
  std::vector<std::uint64_t> counts(n, 0);
  for (int i = 0; i < samples; ++i) ++counts[zipf.sample(rng) - 1];
  return counts;
}

// 200,000 draws over 1,000 keys: the exponent comes back within 0.03 (the ranks are the observed order, so
// the tail's ties bias it slightly; measured errors are below 0.01).
TEST(ZipfFit, RecoversTheExponentOfSamples) {
  for (const double s : {0.7, 1.0, 1.1, 1.5}) {
    const auto fit = fit_zipf(sample_counts(1000, s, 200'000, 11));
    ASSERT_TRUE(fit) << s;
    EXPECT_NEAR(fit->s, s, 0.03) << "s = " << s;
    EXPECT_FALSE(fit->s_at_bound);
    EXPECT_EQ(fit->observations, 200'000U);
    EXPECT_LE(fit->n, 1000U);
    EXPECT_GE(fit->n, 900U) << "nearly every key drawn at least once";
    EXPECT_LT(fit->ks_distance, 0.02) << s;
  }
}

TEST(ZipfFit, ExactCountsFitClosely) {
  std::vector<std::uint64_t> counts;
  for (int k = 1; k <= 200; ++k)
    counts.push_back(static_cast<std::uint64_t>(std::llround(1e6 * std::pow(k, -1.2))));
  std::swap(counts[0], counts[150]);  // any order: the fit ranks them
  const auto fit = fit_zipf(counts);
  ASSERT_TRUE(fit);
  EXPECT_NEAR(fit->s, 1.2, 0.002);
  EXPECT_EQ(fit->n, 200U);
  EXPECT_LT(fit->ks_distance, 0.001);
  // The hottest 1 % of 200 keys: ranks 1 and 2.
  const double top = (1e6 + std::llround(1e6 * std::pow(2, -1.2))) / static_cast<double>(fit->observations);
  EXPECT_NEAR(fit->top_percent_share, top, 1e-3);
}

TEST(ZipfFit, EqualCountsAreAtTheLowerBound) {
  const std::vector<std::uint64_t> counts(50, 7);
  const auto fit = fit_zipf(counts);
  ASSERT_TRUE(fit);
  EXPECT_TRUE(fit->s_at_bound);
  EXPECT_EQ(fit->s, k_zipf_fit_min_s);
}

TEST(ZipfFit, OneKeyIsNoFit) {
  EXPECT_FALSE(fit_zipf(std::vector<std::uint64_t>{5}));
  EXPECT_FALSE(fit_zipf(std::vector<std::uint64_t>{0, 9, 0}));
  EXPECT_FALSE(fit_zipf(std::vector<std::uint64_t>{}));
}

}  // namespace
}  // namespace openloop::workload
