// Phase histograms: new and reused connections kept apart, absent phases not recorded, exact merge.
#include "results/recording/phase_stats.h"

#include <gtest/gtest.h>

#include "results/recording/interval_stats.h"

namespace openloop::results {
namespace {

AttemptPhases attempt(bool fresh, std::int64_t connect, std::int64_t tls, std::int64_t ttfb,
                      std::int64_t body) {
  AttemptPhases a;
  a.new_connection = fresh;
  a[Phase::connect] = connect;
  a[Phase::tls] = tls;
  a[Phase::ttfb] = ttfb;
  a[Phase::body] = body;
  return a;
}

TEST(PhaseStats, KeepsNewAndReusedConnectionsApart) {
  PhaseStats p;
  EXPECT_TRUE(p.empty());
  p.record(attempt(true, 80'000, -1, 300'000, 0));
  p.record(attempt(false, -1, -1, 250'000, 10'000));
  p.record(attempt(false, -1, -1, 260'000, 0));
  EXPECT_FALSE(p.empty());
  EXPECT_EQ(p.at(true, Phase::connect).total_count(), 1);
  EXPECT_EQ(p.at(true, Phase::tls).total_count(), 0);  // plain HTTP: no handshake recorded
  EXPECT_EQ(p.at(true, Phase::ttfb).total_count(), 1);
  EXPECT_EQ(p.at(false, Phase::connect).total_count(), 0);
  EXPECT_EQ(p.at(false, Phase::ttfb).total_count(), 2);
  EXPECT_EQ(p.at(false, Phase::body).total_count(), 2);  // a body read in the same read as the head is 0
  // Two significant digits: within 1 % of the value recorded.
  EXPECT_NEAR(static_cast<double>(p.at(true, Phase::connect).max()), 80'000.0, 800.0);
}

TEST(PhaseStats, MergeEqualsOneRecorderFedEverySample) {
  PhaseStats a, b, all;
  for (int i = 1; i <= 50; ++i) {
    const auto x = attempt(i % 3 == 0, i * 1000, i * 2000, i * 5000, i * 7);
    (i % 2 == 0 ? a : b).record(x);
    all.record(x);
  }
  PhaseStats merged;
  merged.add(a);
  merged.add(b);
  for (bool fresh : {true, false}) {
    for (std::size_t i = 0; i < k_phases; ++i) {
      EXPECT_EQ(merged.at(fresh, static_cast<Phase>(i)), all.at(fresh, static_cast<Phase>(i))) << i;
    }
  }
}

TEST(PhaseStats, ClearedIntervalKeepsItsLayoutAndForgetsPhases) {
  IntervalStats s;
  s.phases.record(attempt(true, 1000, 2000, 3000, 4000));
  EXPECT_TRUE(s.phases.has_layout());
  s.clear();
  EXPECT_TRUE(s.phases.empty());
  EXPECT_TRUE(s.has_layout(s.response_time.counts_length(), 0));
}

}  // namespace
}  // namespace openloop::results
