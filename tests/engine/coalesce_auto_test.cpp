// --coalesce auto's window rule (engine/coalesce_auto.h), on histograms of known service times.
#include "engine/coalesce_auto.h"

#include <gtest/gtest.h>

#include "results/recording/interval_stats.h"

namespace openloop::engine {
namespace {

using std::chrono::microseconds;
using std::chrono::milliseconds;

hdr::Histogram service_times(Nanos value, int count) {
  hdr::Histogram h = results::make_latency_histogram();
  for (int i = 0; i < count; ++i) results::record_ns(h, value.count());
  return h;
}

TEST(AutoCoalesce, ATenthOfTheP10ServiceTime) {
  const AutoCoalesce rule(Nanos(0));
  EXPECT_EQ(rule.window_for(microseconds(40)), microseconds(4));  // a loopback target: nearly precise
  EXPECT_EQ(rule.window_for(microseconds(2000)), microseconds(200));
}

TEST(AutoCoalesce, CappedByHalfTheLatenessBoundAndTheCeiling) {
  // Default bound (the verdict's 1 ms floor): at most 500 µs, whatever the service time.
  EXPECT_EQ(AutoCoalesce(Nanos(0)).window_for(milliseconds(5)), microseconds(500));
  EXPECT_EQ(AutoCoalesce(Nanos(0)).cap(), microseconds(500));
  // --max-lateness 200us: at most 100 µs.
  EXPECT_EQ(AutoCoalesce(microseconds(200)).window_for(milliseconds(5)), microseconds(100));
  // --max-lateness 10ms: the 1 ms ceiling.
  EXPECT_EQ(AutoCoalesce(milliseconds(10)).window_for(milliseconds(50)), milliseconds(1));
}

TEST(AutoCoalesce, UnderAMicrosecondIsPrecise) {
  const AutoCoalesce rule(Nanos(0));
  EXPECT_EQ(rule.window_for(microseconds(9)), Nanos(0));
  EXPECT_EQ(rule.window_for(microseconds(10)), microseconds(1));
}

TEST(AutoCoalesce, StartsPreciseAndFollowsEachMeasuredInterval) {
  AutoCoalesce rule(Nanos(0));
  EXPECT_EQ(rule.window(), Nanos(0));
  // p10 of 90 requests at 1 ms and 10 at 100 µs is 100 µs (HdrHistogram keeps 3 significant digits).
  hdr::Histogram h = service_times(milliseconds(1), 90);
  for (int i = 0; i < 10; ++i) results::record_ns(h, Nanos(microseconds(100)).count());
  const Nanos w = rule.update(h);
  EXPECT_GE(w, microseconds(9));
  EXPECT_LE(w, microseconds(11));
  EXPECT_EQ(rule.window(), w);
  // The target slows down: the next interval widens the window.
  EXPECT_EQ(rule.update(service_times(milliseconds(3), 100)).count() / 1000, 300);
}

TEST(AutoCoalesce, TooFewSamplesKeepThePreviousWindow) {
  AutoCoalesce rule(Nanos(0));
  rule.update(service_times(milliseconds(2), 100));
  const Nanos before = rule.window();
  EXPECT_EQ(before.count() / 1000, 200);
  EXPECT_EQ(rule.update(service_times(microseconds(20), AutoCoalesce::k_min_samples - 1)), before);
  EXPECT_EQ(rule.update(results::make_latency_histogram()), before);
  // 20 µs as HdrHistogram reports it (the bucket's highest equivalent value, 3 significant digits).
  EXPECT_EQ(rule.update(service_times(microseconds(20), AutoCoalesce::k_min_samples)).count() / 100, 20);
}

}  // namespace
}  // namespace openloop::engine
