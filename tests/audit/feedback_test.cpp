#include "audit/feedback.h"

#include <gtest/gtest.h>

namespace openloop::audit {
namespace {

using std::chrono::milliseconds;

TEST(FindFeedback, RateFallingWhileP99RisesIsSaidInOneSentence) {
  TimeBins bins(Nanos(0), milliseconds(100));
  // 10 bins of 100 ms: 100 sends of 2 ms each, except bins 5 and 6: 10 sends of 800 ms.
  for (int b = 0; b < 10; ++b) {
    const bool slow = b == 5 || b == 6;
    const int sends = slow ? 10 : 100;
    for (int i = 0; i < sends; ++i) {
      bins.add(milliseconds(b * 100) + milliseconds(i * 100) / sends,
               slow ? milliseconds(800) : milliseconds(2));
    }
  }
  const FeedbackFinding f = find_feedback(bins);
  ASSERT_EQ(f.bins.size(), 10u);
  EXPECT_TRUE(f.seen) << f.sentence;
  EXPECT_DOUBLE_EQ(f.healthy_rate, 1000);
  EXPECT_DOUBLE_EQ(f.worst_rate, 100);
  EXPECT_NE(f.sentence.find("arrivals fell 90 %"), std::string::npos) << f.sentence;
  EXPECT_NE(f.sentence.find("bins of 100ms"), std::string::npos) << f.sentence;
}

TEST(FindFeedback, SteadyRunHasNone) {
  TimeBins bins(Nanos(0), milliseconds(100));
  for (int i = 0; i < 1000; ++i) bins.add(milliseconds(i), milliseconds(2));
  const FeedbackFinding f = find_feedback(bins);
  EXPECT_FALSE(f.seen);
  EXPECT_NE(f.sentence.find("no slow stretch"), std::string::npos) << f.sentence;
}

TEST(FindFeedback, EmptyBinsInsideTheRunCountAsRateZero) {
  TimeBins bins(Nanos(0), milliseconds(100));
  for (int b : {0, 1, 2, 3, 6, 7, 8, 9}) {
    for (int i = 0; i < 50; ++i) bins.add(milliseconds(b * 100 + 2 * i), milliseconds(2));
  }
  bins.add(milliseconds(399), milliseconds(250));  // the one that waited through the gap
  const FeedbackFinding f = find_feedback(bins);
  ASSERT_EQ(f.bins.size(), 10u);
  EXPECT_EQ(f.bins[4].sent, 0);
  EXPECT_TRUE(f.seen) << f.sentence;
}

}  // namespace
}  // namespace openloop::audit
