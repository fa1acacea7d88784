// The lab's building blocks: service-time distributions, stall schedule, LRU cache, deadline header, ring
// deque.
#include <gtest/gtest.h>

#include "core/rng.h"
#include "lab/deadline_header.h"
#include "lab/lru_cache.h"
#include "lab/ring_deque.h"
#include "lab/service_time.h"
#include "lab/stall_schedule.h"

using namespace openloop;
using namespace openloop::lab;
using namespace std::chrono_literals;

namespace {
double sample_mean_ms(const ServiceTime& s, int n = 200000) {
  Rng rng(42);
  double total = 0;
  for (int i = 0; i < n; ++i) total += to_millis(s.sample(rng));
  return total / n;
}
}  // namespace

TEST(ServiceTime, ParsesEveryFormAndRoundTrips) {
  for (const char* text : {"1ms", "0", "exp:1ms", "lognormal:1ms,0.5", "uniform:1ms..3ms"}) {
    auto s = ServiceTime::parse(text, "--service");
    ASSERT_TRUE(s) << text;
    auto again = ServiceTime::parse(s->to_string(), "--service");
    ASSERT_TRUE(again) << s->to_string();
    EXPECT_EQ(again->mean(), s->mean()) << text;
  }
  EXPECT_TRUE(ServiceTime::parse("0", "x")->is_zero());
}

TEST(ServiceTime, RejectsBadFormsNamingTheInput) {
  for (const char* text :
       {"", "fast", "exp:", "lognormal:1ms", "lognormal:1ms,-1", "uniform:3ms..1ms", "gauss:1ms"}) {
    auto s = ServiceTime::parse(text, "--service");
    ASSERT_FALSE(s) << text;
    EXPECT_NE(s.error().message.find("--service"), std::string::npos);
    EXPECT_NE(s.error().message.find("accepted"), std::string::npos);
    EXPECT_EQ(s.error().code, ExitCode::usage);
  }
}

TEST(ServiceTime, EveryShapeHasTheMeanItWasGiven) {
  EXPECT_NEAR(sample_mean_ms(*ServiceTime::parse("exp:1ms", "x")), 1.0, 0.02);
  EXPECT_NEAR(sample_mean_ms(*ServiceTime::parse("lognormal:1ms,0.5", "x")), 1.0, 0.02);
  EXPECT_NEAR(sample_mean_ms(*ServiceTime::parse("uniform:1ms..3ms", "x")), 2.0, 0.02);
  EXPECT_EQ(sample_mean_ms(*ServiceTime::parse("2ms", "x"), 10), 2.0);
}

TEST(StallSchedule, ParsesPeriodicAndOneOffStalls) {
  auto p = StallSchedule::parse_periodic("500ms/2s", "--stall");
  ASSERT_TRUE(p);
  EXPECT_EQ(**p, (StallWindow{500ms, 2s}));
  EXPECT_FALSE(*StallSchedule::parse_periodic("0", "--stall"));
  EXPECT_FALSE(StallSchedule::parse_periodic("2s/500ms", "--stall"));
  EXPECT_FALSE(StallSchedule::parse_periodic("500ms", "--stall"));
  auto once = StallSchedule::parse_once("10s+3s", "--stall-at");
  ASSERT_TRUE(once);
  EXPECT_EQ(*once, (StallWindow{10s, 13s}));
  auto bad = StallSchedule::parse_once("10s", "--stall-at");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("--stall-at"), std::string::npos);
}

TEST(StallSchedule, PeriodicStallsStartAfterOnePeriod) {
  StallSchedule s;
  s.set_periodic(StallWindow{500ms, 2s});
  EXPECT_FALSE(s.stall_at(0ms));
  EXPECT_FALSE(s.stall_at(1999ms));
  EXPECT_EQ(*s.stall_at(2100ms), (StallWindow{2s, 2500ms}));
  EXPECT_FALSE(s.stall_at(2500ms));
  EXPECT_EQ(*s.next_start_after(0ms), 2s);
  EXPECT_EQ(*s.next_start_after(2s), 4s);
}

TEST(StallSchedule, OverlappingWindowsMerge) {
  StallSchedule s;
  s.add_once(StallWindow{1s, 2s});
  s.add_once(StallWindow{2s, 3s});
  s.add_once(StallWindow{2500ms, 4s});
  EXPECT_EQ(*s.stall_at(1500ms), (StallWindow{1s, 4s}));
  EXPECT_FALSE(s.next_start_after(3s));
}

TEST(LruCache, EvictsLeastRecentlyUsed) {
  LruCache c(2);
  EXPECT_FALSE(c.access(1));
  EXPECT_FALSE(c.access(2));
  EXPECT_TRUE(c.access(1));   // 1 is now the most recent
  EXPECT_FALSE(c.access(3));  // evicts 2
  EXPECT_TRUE(c.access(1));
  EXPECT_FALSE(c.access(2));
  EXPECT_EQ(c.size(), 2u);
  c.set_capacity(1);
  EXPECT_EQ(c.size(), 1u);
  EXPECT_TRUE(c.access(2));
  c.clear();
  EXPECT_FALSE(c.access(2));
}

TEST(LruCache, ZeroCapacityAlwaysMisses) {
  LruCache c(0);
  EXPECT_FALSE(c.access(1));
  EXPECT_FALSE(c.access(1));
  EXPECT_EQ(c.size(), 0u);
}

TEST(DeadlineHeader, ParsesBudgets) {
  EXPECT_EQ(parse_budget("250ms"), Nanos(250ms));
  EXPECT_EQ(parse_budget(" 250 "), Nanos(250ms));
  EXPECT_EQ(parse_budget("1.5s"), Nanos(1500ms));
  EXPECT_EQ(parse_budget("100us"), Nanos(100us));
  EXPECT_EQ(parse_budget("0"), Nanos(0));
  EXPECT_FALSE(parse_budget(""));
  EXPECT_FALSE(parse_budget("soon"));
  EXPECT_FALSE(parse_budget("5m"));
  EXPECT_FALSE(parse_budget("-1"));
}

TEST(RingDeque, WorksAsFifoAndLifoAcrossGrowth) {
  RingDeque<int> q(2);
  for (int i = 0; i < 10; ++i) q.push_back(i);
  EXPECT_EQ(q.pop_front(), 0);
  EXPECT_EQ(q.pop_back(), 9);
  for (int i = 10; i < 20; ++i) q.push_back(i);
  EXPECT_EQ(q.size(), 18u);
  EXPECT_EQ(q[0], 1);
  EXPECT_EQ(q.pop_back(), 19);
  EXPECT_EQ(q.pop_front(), 1);
}
