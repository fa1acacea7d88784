// When HTTP/2's precise open model sleeps through responses to its next arrival (engine/sleep_through.h), on
// a manual clock.
#include "engine/sleep_through.h"

#include <gtest/gtest.h>

#include "core/clock.h"

using namespace openloop;
using namespace openloop::engine;
using namespace std::chrono_literals;

namespace {

// A wait that begins now and ends at an arrival `ahead` from now, nothing queued.
SleepThroughState arrival_in(const ManualClock& clock, Nanos ahead) {
  const SteadyTime at = clock.now() + ahead;
  return {true, clock.now(), at, at, 0, false};
}

}  // namespace

TEST(SleepThrough, AnArrivalWithinTheHorizonIsSleptTo) {
  ManualClock clock;
  EXPECT_TRUE(sleeps_through_responses(arrival_in(clock, 30us)));
  EXPECT_TRUE(sleeps_through_responses(arrival_in(clock, k_sleep_through_horizon)));
  // Already due (the loop is late): read and send at once.
  EXPECT_TRUE(sleeps_through_responses(arrival_in(clock, 0us)));
}

TEST(SleepThrough, AFartherArrivalWaitsOnTheSockets) {
  ManualClock clock;
  EXPECT_FALSE(sleeps_through_responses(arrival_in(clock, k_sleep_through_horizon + 1ns)));
  EXPECT_FALSE(sleeps_through_responses(arrival_in(clock, 5ms)));
}

TEST(SleepThrough, OnlyAWaitThatEndsAtTheArrival) {
  ManualClock clock;
  SleepThroughState s = arrival_in(clock, 50us);
  // The wait ends earlier, on a timer or a deadline: a response may be what it waits for.
  s.wake = clock.now() + 20us;
  EXPECT_FALSE(sleeps_through_responses(s));
  // The schedule is over: nothing to send, responses read as they come.
  s = arrival_in(clock, 50us);
  s.next_arrival.reset();
  EXPECT_FALSE(sleeps_through_responses(s));
}

TEST(SleepThrough, NotWhileArrivalsWaitForAStream) {
  ManualClock clock;
  SleepThroughState s = arrival_in(clock, 50us);
  s.queued = 1;
  EXPECT_FALSE(sleeps_through_responses(s));
}

TEST(SleepThrough, NotWhileAConnectionIsSetUp) {
  ManualClock clock;
  SleepThroughState s = arrival_in(clock, 50us);
  s.connecting = true;
  EXPECT_FALSE(sleeps_through_responses(s));
}

TEST(SleepThrough, NotWhereThePlanDoesNotAllowIt) {
  ManualClock clock;
  SleepThroughState s = arrival_in(clock, 50us);
  s.eligible = false;
  EXPECT_FALSE(sleeps_through_responses(s));
}

TEST(SleepThrough, TheDecisionFollowsTheClock) {
  ManualClock clock;
  const SteadyTime at = clock.now() + 1ms;
  SleepThroughState s{true, clock.now(), at, at, 0, false};
  EXPECT_FALSE(sleeps_through_responses(s));
  clock.advance(1ms - k_sleep_through_horizon);
  s.now = clock.now();
  EXPECT_TRUE(sleeps_through_responses(s));
}
