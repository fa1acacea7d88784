#include "audit/pace_detector.h"

#include <algorithm>
#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace openloop::audit {
namespace {

using std::chrono::microseconds;
using std::chrono::milliseconds;

// `senders` each sending every `interval` from its own phase (at random within one interval, or all at 0),
// with uniform jitter of ± `jitter`, for `span`; the sends merged in time order, as an unattributed file has
// them.
std::vector<Nanos> paced_sends(int senders, Nanos interval, Nanos jitter, Nanos span, bool in_phase,
                               unsigned seed = 1) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> jit(-jitter.count(), jitter.count());
  std::uniform_int_distribution<std::int64_t> at(0, interval.count() - 1);
  std::vector<Nanos> sends;
  for (int s = 0; s < senders; ++s) {
    const Nanos phase = in_phase ? Nanos(0) : Nanos(at(rng));
    for (Nanos t = phase; t < span; t += interval) sends.push_back(t + Nanos(jit(rng)));
  }
  std::sort(sends.begin(), sends.end());
  return sends;
}

std::optional<Pace> detect(const std::vector<Nanos>& sends) {
  PaceDetector d(microseconds(100));
  for (Nanos t : sends) d.learn(t);
  return d.find();
}

TEST(PaceDetector, FindsTheIntervalOfSendersAtRandomPhases) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    auto p =
        detect(paced_sends(10, milliseconds(20), microseconds(100), std::chrono::seconds(5), false, seed));
    ASSERT_TRUE(p) << "seed " << seed;
    EXPECT_NEAR(to_millis(p->interval), 20, 0.3) << "seed " << seed;
    EXPECT_GT(p->share, 0.5) << "seed " << seed;  // other senders near 20 ms raise the background
  }
}

TEST(PaceDetector, FindsTheIntervalNotItsMultipleWhenSendersAreInPhase) {
  // hey starts its workers together: every sender's sends fall on the same comb, multiples of the pace
  // included.
  auto p = detect(paced_sends(10, milliseconds(20), microseconds(200), std::chrono::seconds(5), true));
  ASSERT_TRUE(p);
  EXPECT_NEAR(to_millis(p->interval), 20, 0.3);
}

TEST(PaceDetector, FindsALongPaceAmongFewSenders) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    auto p =
        detect(paced_sends(2, milliseconds(250), microseconds(500), std::chrono::seconds(20), false, seed));
    ASSERT_TRUE(p) << "seed " << seed;
    EXPECT_NEAR(to_millis(p->interval), 250, 1) << "seed " << seed;
  }
}

TEST(PaceDetector, SendersAtEvenPhasesReadAsTheirMergedPace) {
  // The limit stated in the header: ten senders a tenth of 20 ms apart are one pace of 2 ms in the file.
  std::vector<Nanos> sends;
  for (Nanos t{0}; t < std::chrono::seconds(5); t += milliseconds(2)) sends.push_back(t);
  auto p = detect(sends);
  ASSERT_TRUE(p);
  EXPECT_NEAR(to_millis(p->interval), 2, 0.3);
}

TEST(PaceDetector, PoissonSendsHaveNoPace) {
  std::mt19937_64 rng(7);
  std::exponential_distribution<double> gap(500.0);  // 500/s
  std::vector<Nanos> sends;
  double t = 0;
  for (int i = 0; i < 5000; ++i) sends.push_back(Nanos(static_cast<std::int64_t>((t += gap(rng)) * 1e9)));
  EXPECT_FALSE(detect(sends));
}

TEST(PaceDetector, JitterWiderThanItsBinsHidesThePace) {
  // ± 5 ms around a 20 ms pace: no spacing stands out from its neighbourhood by half the sends.
  EXPECT_FALSE(detect(paced_sends(10, milliseconds(20), milliseconds(5), std::chrono::seconds(5), false)));
}

TEST(PaceDetector, TooFewSendsSayNothing) {
  EXPECT_FALSE(detect(paced_sends(1, milliseconds(20), Nanos(0), milliseconds(300), false)));
}

}  // namespace
}  // namespace openloop::audit
