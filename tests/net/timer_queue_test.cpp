#include "net/timer_queue.h"

#include <gtest/gtest.h>

#include <vector>

using namespace openloop;
using namespace openloop::net;
using namespace std::chrono_literals;

namespace {
struct Recorder : TimerHandler {
  std::vector<std::uint64_t> fired;
  void on_timer(std::uint64_t cookie) override { fired.push_back(cookie); }
};
}  // namespace

TEST(TimerQueue, FiresDueTimersInDeadlineOrderThenTies) {
  TimerQueue q;
  Recorder r;
  const SteadyTime t0{};
  q.schedule(t0 + 3ms, &r, 3);
  q.schedule(t0 + 1ms, &r, 1);
  q.schedule(t0 + 2ms, &r, 21);
  q.schedule(t0 + 2ms, &r, 22);
  EXPECT_EQ(q.next_deadline(), t0 + 1ms);
  EXPECT_EQ(q.fire_due(t0 + 2ms), 3);
  EXPECT_EQ(r.fired, (std::vector<std::uint64_t>{1, 21, 22}));
  EXPECT_EQ(q.next_deadline(), t0 + 3ms);
  EXPECT_EQ(q.fire_due(t0 + 2ms), 0);
  EXPECT_EQ(q.fire_due(t0 + 10ms), 1);
  EXPECT_EQ(q.next_deadline(), SteadyTime::max());
}
