#include "core/rng.h"

#include <gtest/gtest.h>

using namespace openloop;

TEST(Rng, SameSeedAndStreamGiveSameSequence) {
  Rng a(42, 3), b(42, 3), c(42, 4);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    auto x = a.next();
    EXPECT_EQ(x, b.next());
    differs |= x != c.next();
  }
  EXPECT_TRUE(differs);
}

TEST(Rng, Uniform01MeanAndExponentialMeanAreRight) {
  Rng r(7);
  double su = 0, se = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    double u = r.uniform01();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    su += u;
    se += r.exponential();
  }
  EXPECT_NEAR(su / n, 0.5, 0.005);
  EXPECT_NEAR(se / n, 1.0, 0.01);
}
