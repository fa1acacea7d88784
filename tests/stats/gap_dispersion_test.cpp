// Gap dispersion: exact deviations and bunched shares on sequences worked by hand.
#include "stats/gap_dispersion.h"

#include <vector>

#include <gtest/gtest.h>

using namespace openloop::stats;

TEST(GapDispersion, OnPlanHasNoDeviationAndNoBunching) {
  const std::vector<double> planned(10, 100.0);
  const GapDispersion g = gap_dispersion(planned, planned, 10.0);
  EXPECT_EQ(g.n, 10u);
  EXPECT_EQ(g.sd_deviation, 0.0);
  EXPECT_EQ(g.bunched, 0.0);
  EXPECT_EQ(g.mean_planned, 100.0);
}

// Ten sends every 100 coalesced into two bursts: gaps 0,0,0,0,500 twice. Deviations −100 ×8 and +400 ×2:
// mean 0, variance (8·100² + 2·400²)/10 = 40,000, so sd 200; 80 % of gaps below 10 where the plan has none.
TEST(GapDispersion, CoalescedSendsAreBunched) {
  const std::vector<double> planned(10, 100.0);
  const std::vector<double> achieved{0, 0, 0, 0, 500, 0, 0, 0, 0, 500};
  const GapDispersion g = gap_dispersion(achieved, planned, 10.0);
  EXPECT_NEAR(g.sd_deviation, 200.0, 1e-9);
  EXPECT_EQ(g.max_deviation, 400.0);
  EXPECT_DOUBLE_EQ(g.bunched, 0.8);
  EXPECT_EQ(g.planned_bunched, 0.0);
}

// One stall among many punctual gaps moves the standard deviation, not the robust one.
TEST(GapDispersion, TheRobustSpreadIgnoresARareStall) {
  std::vector<double> planned(100, 100.0), achieved(100, 100.0);
  for (std::size_t i = 0; i < achieved.size(); ++i) achieved[i] += (i % 2 == 0 ? 1.0 : -1.0);
  achieved[50] += 5000;
  const GapDispersion g = gap_dispersion(achieved, planned, 10.0);
  EXPECT_GT(g.sd_deviation, 400.0);
  // Deviations ±1 and one +5000: median +1 (the upper one of an even count), absolute deviations from it 0
  // and 2, their median 2: 1.4826 × 2.
  EXPECT_NEAR(g.robust_sd_deviation, 2 * 1.4826, 1e-9);
}

TEST(GapDispersion, EmptyIsZero) {
  const GapDispersion g = gap_dispersion({}, {}, 1.0);
  EXPECT_EQ(g.n, 0u);
}
