// Kneedle on textbook curves: the paper's figure 2, flat-then-steep and its mirror, and curves with no knee.
#include "procedures/ramp/ramp_knee.h"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

using namespace openloop::procedures;

namespace {
std::vector<double> linspace(double a, double b, int n) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(a + (b - a) * i / (n - 1));
  return v;
}
}  // namespace

// Satopää et al. 2011, figure 2 (also kneed's "figure2" test): y = −1/(x + 0.1) + 5 on 10 points of [0, 1];
// the knee is at x ≈ 0.22. By hand: the difference curve y_n − x_n is 0, .468, .536, .513, .454, .376, ...;
// its maximum at index 2 is confirmed when .376 falls below .536 − 1/9.
TEST(Kneedle, FindsThePapersFigure2Knee) {
  const auto x = linspace(0, 1, 10);
  std::vector<double> y;
  for (const double v : x) y.push_back(-1 / (v + 0.1) + 5);
  const auto k = find_knee(x, y, KneeShape::concave, KneeDirection::increasing);
  ASSERT_TRUE(k.has_value());
  EXPECT_EQ(*k, 2U);
  EXPECT_NEAR(x[*k], 0.22, 0.05 * 0.22);
}

// p99 against offered load: flat, then doubling. The knee is the last point before the climb takes over.
TEST(Kneedle, FindsWhereAConvexCurveStartsToClimb) {
  const std::vector<double> x{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  const std::vector<double> y{1, 1, 1, 1, 1, 1, 2, 4, 8, 16};
  const auto k = find_knee(x, y, KneeShape::convex, KneeDirection::increasing);
  ASSERT_TRUE(k.has_value());
  EXPECT_EQ(*k, 6U);
}

TEST(Kneedle, MirrorsForDecreasingCurves) {
  const std::vector<double> x{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  const std::vector<double> y{16, 8, 4, 2, 1, 1, 1, 1, 1, 1};
  const auto k = find_knee(x, y, KneeShape::convex, KneeDirection::decreasing);
  ASSERT_TRUE(k.has_value());
  EXPECT_EQ(*k, 3U);
}

// Seed 000's ramp: goodput 200, 300, 400, 449, then 351, 88, 0 as offered rises to 600/s. From the origin,
// the knee is the last step that kept up: 450/s.
TEST(Kneedle, FindsTheSeedsGoodputKneeFromTheOrigin) {
  const std::vector<double> x{0, 200, 300, 400, 450, 500, 550, 600};
  const std::vector<double> y{0, 200, 300, 400, 449, 351, 88, 0};
  const auto k = find_knee(x, y, KneeShape::concave, KneeDirection::increasing);
  ASSERT_TRUE(k.has_value());
  EXPECT_EQ(x[*k], 450);
}

TEST(Kneedle, NoKneeOnAStraightLineOrTooFewPoints) {
  const std::vector<double> x{1, 2, 3, 4, 5};
  EXPECT_FALSE(
      find_knee(x, std::vector<double>{2, 4, 6, 8, 10}, KneeShape::concave, KneeDirection::increasing));
  EXPECT_FALSE(
      find_knee(x, std::vector<double>{3, 3, 3, 3, 3}, KneeShape::convex, KneeDirection::increasing));
  EXPECT_FALSE(find_knee(std::vector<double>{1, 2}, std::vector<double>{1, 5}, KneeShape::convex,
                         KneeDirection::increasing));
}

// A higher sensitivity asks for a larger drop after the maximum before calling it a knee.
TEST(Kneedle, SensitivityRaisesTheBar) {
  const std::vector<double> x{1, 2, 3, 4, 5, 6};
  const std::vector<double> y{1, 1, 1, 1.3, 1.6, 2};
  EXPECT_TRUE(find_knee(x, y, KneeShape::convex, KneeDirection::increasing, 1.0).has_value());
  EXPECT_FALSE(find_knee(x, y, KneeShape::convex, KneeDirection::increasing, 10.0).has_value());
}
