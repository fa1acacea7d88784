#include "audit/time_bins.h"

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

}  // namespace
}  // namespace openloop::audit
