// Fitting a constant-rate schedule to numbered sends (Vegeta's seq) and the sends' lateness against it.
#include "audit/send_lateness.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace openloop::audit {
namespace {

using namespace std::chrono_literals;

SendLatenessFinding fit(const std::vector<Record>& sends) {
  ScheduleFit f;
  for (const Record& r : sends) f.learn(r);
  while (f.begin_search())
    for (const Record& r : sends) f.search(r);
  if (f.fittable())
    for (const Record& r : sends) f.lateness(r);
  return f.finish("Vegeta");
}

// 10,000 sends at 1000/s from an arbitrary origin, each 0–50 µs late; sends 4,000–4,499 held back until
// 4.8 s (a pacer blocked for 300 ms behind busy workers, then catching up at once).
std::vector<Record> stalled_run() {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<std::int64_t> jitter(0, 50'000);
  const Nanos origin(1'700'000'000'123'456'789LL);
  std::vector<Record> sends;
  for (std::int64_t n = 0; n < 10'000; ++n) {
    Record r;
    r.seq = n;
    Nanos due = origin + n * 1ms;
    if (n >= 4'000 && n < 4'500) due = std::max(due, origin + 4'800ms);
    r.start = due + Nanos(jitter(rng));
    sends.push_back(r);
  }
  std::stable_sort(sends.begin(), sends.end(),
                   [](const Record& a, const Record& b) { return a.start < b.start; });
  return sends;
}

TEST(ScheduleFit, FindsTheIntervalAndTheLatenessOfAStall) {
  const SendLatenessFinding f = fit(stalled_run());
  ASSERT_TRUE(f.applicable) << f.why;
  EXPECT_NEAR(static_cast<double>(f.interval.count()), 1e6, 10) << "the interval within 10 ns of 1 ms";
  EXPECT_NEAR(f.rate, 1000.0, 0.01);
  EXPECT_EQ(f.lateness.count, 10'000);
  // Send 4,000 was due at 4.0 s and left at 4.8 s; the healthy sends are at most 50 µs late.
  EXPECT_NEAR(static_cast<double>(f.lateness.max.count()), 800e6, 1e6);
  EXPECT_LT(f.lateness.p50, 60us);
  EXPECT_GT(f.lateness.p99, 100ms);  // 5 % of the sends were held back
  // 500 held back; those due within 1 ms of the release are not over one interval late.
  EXPECT_GE(f.late_over_interval, 498);
  EXPECT_LE(f.late_over_interval, 500);
  EXPECT_NE(f.sentence.find("1000/s"), std::string::npos) << f.sentence;
}

TEST(ScheduleFit, TheFirstSendsLateDoNotSetTheOrigin) {
  // 2,000 sends at 2000/s; the first ten left together 5 ms late (a cold start): the schedule is the one the
  // other 1,990 kept, and the first sends are late against it, not the rest early.
  std::vector<Record> sends;
  for (std::int64_t n = 0; n < 2'000; ++n) {
    Record r;
    r.seq = n;
    r.start = n < 10 ? Nanos(5ms) : Nanos(n * 500'000);
    sends.push_back(r);
  }
  const SendLatenessFinding f = fit(sends);
  ASSERT_TRUE(f.applicable) << f.why;
  EXPECT_NEAR(static_cast<double>(f.interval.count()), 500'000, 5);
  EXPECT_LT(f.lateness.p90, 10us);
  EXPECT_NEAR(static_cast<double>(f.lateness.max.count()), 5e6, 2e4);  // send 0: due at 0, sent at 5 ms
  EXPECT_EQ(f.late_over_interval, 9);                                  // sends 0-8 (send 9: 0.5 ms)
}

TEST(ScheduleFit, SendsWithoutNumbersHaveNoSchedule) {
  std::vector<Record> sends(100);
  for (std::size_t i = 0; i < sends.size(); ++i)
    sends[i].start = Nanos(static_cast<std::int64_t>(i) * 1'000'000);
  const SendLatenessFinding f = fit(sends);
  EXPECT_FALSE(f.applicable);
  EXPECT_NE(f.why.find("numbers no send"), std::string::npos) << f.why;
  std::vector<Record> one(1);
  one[0].seq = 0;
  EXPECT_FALSE(fit(one).applicable);
}

}  // namespace
}  // namespace openloop::audit
