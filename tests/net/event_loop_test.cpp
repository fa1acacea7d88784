#include "net/event_loop.h"

#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <thread>

#include <pthread.h>
#include <unistd.h>

using namespace openloop;
using namespace openloop::net;
using namespace std::chrono_literals;

namespace {
struct Reader : IoHandler {
  int fd;
  int calls = 0;
  explicit Reader(int f) : fd(f) {}
  void on_io(std::uint32_t events) override {
    if ((events & EPOLLIN) != 0) {
      char buf[16];
      [[maybe_unused]] auto n = ::read(fd, buf, sizeof buf);
      ++calls;
    }
  }
};

// A pipe whose read end the loop watches (EPOLLIN, a Reader); removed and closed at the end of the test.
struct WatchedPipe {
  EventLoop& loop;
  int fds[2] = {-1, -1};
  Reader reader{-1};
  explicit WatchedPipe(EventLoop& l) : loop(l) {
    if (pipe(fds) != 0) ADD_FAILURE() << "pipe";
    reader.fd = fds[0];
    EXPECT_TRUE(loop.add(fds[0], EPOLLIN, &reader));
  }
  ~WatchedPipe() {
    loop.remove(fds[0]);
    ::close(fds[0]);
    ::close(fds[1]);
  }
  WatchedPipe(const WatchedPipe&) = delete;
  WatchedPipe& operator=(const WatchedPipe&) = delete;
  void make_ready() const { ASSERT_EQ(::write(fds[1], "x", 1), 1); }
};
}  // namespace

TEST(EventLoop, DispatchesReadinessToHandler) {
  auto loop = EventLoop::create();
  ASSERT_TRUE(loop);
  WatchedPipe p(*loop);
  EXPECT_EQ(loop->poll(SteadyClock::now()), 0);
  p.make_ready();
  EXPECT_EQ(loop->poll(SteadyClock::now() + 1s), 1);
  EXPECT_EQ(p.reader.calls, 1);
}

TEST(EventLoop, WakeFromAnotherThreadEndsAnIndefiniteWait) {
  auto loop = EventLoop::create();
  ASSERT_TRUE(loop);
  std::thread t([&] { loop->wake(); });
  EXPECT_EQ(loop->poll(SteadyTime::max()), 0);
  t.join();
}

TEST(EventLoop, PollAfterSleepsThroughReadinessThenDispatchesIt) {
  auto loop = EventLoop::create();
  ASSERT_TRUE(loop);
  WatchedPipe p(*loop);
  p.make_ready();  // ready before the sleep starts
  const SteadyTime until = SteadyClock::now() + 20ms;
  EXPECT_EQ(loop->poll_after(until), 1);
  EXPECT_GE(SteadyClock::now(), until);
  EXPECT_EQ(p.reader.calls, 1);
  // A time already past does not sleep at all.
  p.make_ready();
  const SteadyTime start = SteadyClock::now();
  EXPECT_EQ(loop->poll_after(start - 1ms), 1);
  EXPECT_LT(SteadyClock::now() - start, 1s);
}

// Both ways of keeping a deadline: epoll_pwait2 and, where the kernel lacks it, a timerfd.
class EventLoopWait : public ::testing::TestWithParam<WaitMode> {};

TEST_P(EventLoopWait, ReturnsAtTheDeadlineAndNotBefore) {
  auto loop = EventLoop::create(GetParam());
  ASSERT_TRUE(loop);
  EXPECT_EQ(loop->uses_timerfd(), GetParam() == WaitMode::timerfd || loop->uses_timerfd());
  for (const auto wait : {2ms, 1ms, 3ms}) {  // a later deadline after an earlier one re-arms the timer
    const SteadyTime deadline = SteadyClock::now() + wait;
    int n = 0;
    while (SteadyClock::now() < deadline) n += loop->poll(deadline);  // a poll may end early (EINTR): retry
    EXPECT_GE(SteadyClock::now(), deadline);
    EXPECT_EQ(n, 0);
  }
  // A past deadline does not block, and an unchanged future one is still kept.
  EXPECT_EQ(loop->poll(SteadyTime{}), 0);
}

TEST_P(EventLoopWait, DispatchesReadinessBeforeTheDeadline) {
  auto loop = EventLoop::create(GetParam());
  ASSERT_TRUE(loop);
  WatchedPipe p(*loop);
  std::thread t([&] { p.make_ready(); });
  const SteadyTime start = SteadyClock::now();
  EXPECT_EQ(loop->poll(start + 10s), 1);
  EXPECT_LT(SteadyClock::now() - start, 5s);
  t.join();
  EXPECT_EQ(p.reader.calls, 1);
  // The wake-up eventfd still ends an indefinite wait.
  std::thread w([&] { loop->wake(); });
  EXPECT_EQ(loop->poll(SteadyTime::max()), 0);
  w.join();
}

TEST_P(EventLoopWait, AFailedWaitIsReportedNotRetriedSilently) {
  auto made = EventLoop::create(GetParam());
  ASSERT_TRUE(made);
  EventLoop kept(std::move(*made));
  // The moved-from loop has no epoll descriptor left: its wait fails with an error no retry can cure.
  EXPECT_EQ(made->poll(SteadyTime{}), -1);
  EXPECT_NE(made->failure(), 0);
  EXPECT_NE(made->failure(), EINTR);
  EXPECT_EQ(kept.failure(), 0);
}

TEST_P(EventLoopWait, AWaitInterruptedByASignalIsNoFailure) {
  auto loop = EventLoop::create(GetParam());
  ASSERT_TRUE(loop);
  struct sigaction quiet {};
  quiet.sa_handler = [](int) {};
  struct sigaction old {};
  ASSERT_EQ(sigaction(SIGUSR1, &quiet, &old), 0);
  std::atomic<bool> returned{false};
  int result = 0;
  const pthread_t waiter = pthread_self();
  // Signals the waiting thread until its wait returns (bounded: 5 s of 1 ms steps).
  std::thread signaller([&] {
    for (int i = 0; i < 5000 && !returned.load(); ++i) {
      pthread_kill(waiter, SIGUSR1);
      std::this_thread::sleep_for(1ms);
    }
  });
  result = loop->poll(SteadyClock::now() + 10s);
  returned.store(true);
  signaller.join();
  sigaction(SIGUSR1, &old, nullptr);
  EXPECT_EQ(result, -1);
  EXPECT_EQ(loop->failure(), 0);
}

INSTANTIATE_TEST_SUITE_P(Modes, EventLoopWait, ::testing::Values(WaitMode::automatic, WaitMode::timerfd),
                         [](const auto& param_info) {
                           return param_info.param == WaitMode::timerfd ? std::string("timerfd")
                                                                        : std::string("automatic");
                         });
