#include "audit/time_bins.h"

#include "audit/feedback.h"

#include <gtest/gtest.h>

namespace openloop::audit {
namespace {

TEST(TimeBins, WidenByDoublingAndKeepEveryRequest) {
  TimeBins bins(Nanos(0), std::chrono::milliseconds(10));
  for (int i = 0; i < 5000; ++i) bins.add(std::chrono::milliseconds(i), std::chrono::milliseconds(1));
  EXPECT_LE(bins.bins().size(), TimeBins::k_max_bins);
  EXPECT_EQ(bins.width(), std::chrono::milliseconds(80));  // 5 s in ≤ 120 bins: 10 → 20 → 40 → 80 ms
  std::int64_t total = 0;
  for (const auto& [i, b] : bins.bins()) total += b.sent;
  EXPECT_EQ(total, 5000);
}

TEST(TimeBins, SendsBeforeTheOriginLandInNegativeBins) {
  TimeBins bins(std::chrono::seconds(1), std::chrono::milliseconds(10));
  bins.add(std::chrono::milliseconds(995), Nanos(1));
  EXPECT_EQ(bins.bins().begin()->first, -1);
}

TEST(TimeBins, TwoSendsYearsApartSpanAtMostTheBound) {
  // A fuzzed ab file: two sends 20 years apart made the feedback walk 6e8 empty one-second bins.
  TimeBins bins(Nanos(0), std::chrono::seconds(1));
  bins.add(Nanos(0), std::chrono::milliseconds(1));
  bins.add(std::chrono::hours(24 * 365 * 20), std::chrono::milliseconds(1));
  const auto& map = bins.bins();
  EXPECT_LT(map.rbegin()->first - map.begin()->first, static_cast<std::int64_t>(TimeBins::k_max_bins));
  EXPECT_LE(find_feedback(bins).bins.size(), TimeBins::k_max_bins);
}

}  // namespace
}  // namespace openloop::audit
