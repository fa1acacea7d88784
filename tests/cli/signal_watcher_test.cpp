// The signal watcher's stop flag: escalation is one atomic read-modify-write, and signals reach it.
#include "cli/signal_watcher.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <unistd.h>
#include <thread>

namespace openloop::cli {
namespace {

TEST(EscalateStop, GoesFromGracefulToNowAndStaysThere) {
  std::atomic<int> stop{0};
  EXPECT_EQ(escalate_stop(stop), 1);
  EXPECT_EQ(escalate_stop(stop), 2);
  EXPECT_EQ(escalate_stop(stop), 2);
  EXPECT_EQ(stop.load(), 2);
}

// A procedure stopping its own run (compare-and-swap 0 → 1, as ramp_runner and slo_abort do) racing a signal:
// whichever comes first, a signal after a successful swap must leave the flag at 2. With a separate load and
// store, the signal could read 0, the swap succeed, and the store of 1 swallow the signal.
TEST(EscalateStop, ASignalRacingAProceduresOwnStopIsNeverLost) {
  for (int round = 0; round < 2000; ++round) {
    std::atomic<int> stop{0};
    std::atomic<bool> go{false};
    bool swapped = false;
    std::thread procedure([&] {
      while (!go.load()) {
      }
      int expected = 0;
      swapped = stop.compare_exchange_strong(expected, 1);
    });
    std::thread signal([&] {
      while (!go.load()) {
      }
      escalate_stop(stop);
    });
    go.store(true);
    procedure.join();
    signal.join();
    // Swapped first: the signal came after and escalates to 2. Signal first: the swap failed, the flag is 1.
    ASSERT_EQ(stop.load(), swapped ? 2 : 1) << "round " << round;
  }
}

TEST(SignalWatcher, TurnsSignalsIntoStopRequestsAndKeepsOnesThatComeLate) {
  std::atomic<int> stop{0};
  const auto wait_for = [&stop](int value) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (stop.load() != value && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return stop.load() == value;
  };
  {
    SignalWatcher watcher(stop);
    ASSERT_EQ(::kill(::getpid(), SIGINT), 0);
    EXPECT_TRUE(wait_for(1));
    watcher.finishing();
    ASSERT_EQ(::kill(::getpid(), SIGTERM), 0);
    EXPECT_TRUE(wait_for(2));
    // Pending when the watcher ends: taken by its destructor, not delivered with the default action (which
    // would end this test process).
    ASSERT_EQ(::kill(::getpid(), SIGINT), 0);
  }
  EXPECT_EQ(stop.load(), 2);
}

// The destructor wakes the watcher with a SIGINT of its own, which is not a stop request: many watchers come
// and go with stop untouched (a wake taken for a user's signal would raise it).
TEST(SignalWatcher, ItsOwnWakeAtTheEndIsNoStopRequest) {
  std::atomic<int> stop{0};
  for (int i = 0; i < 20; ++i) {
    SignalWatcher watcher(stop);
    // Ended while its thread waits (the wake is then taken by sigtimedwait, not dropped with an exiting
    // thread).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!watcher.watching() && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
    ASSERT_TRUE(watcher.watching());
  }
  EXPECT_EQ(stop.load(), 0);
}

}  // namespace
}  // namespace openloop::cli
