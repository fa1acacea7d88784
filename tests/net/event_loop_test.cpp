#include "net/event_loop.h"

#include <gtest/gtest.h>

#include <thread>

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
}  // namespace

TEST(EventLoop, DispatchesReadinessToHandler) {
  auto loop = EventLoop::create();
  ASSERT_TRUE(loop);
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  Reader r(p[0]);
  ASSERT_TRUE(loop->add(p[0], EPOLLIN, &r));
  EXPECT_EQ(loop->poll(SteadyClock::now()), 0);
  ASSERT_EQ(::write(p[1], "x", 1), 1);
  EXPECT_EQ(loop->poll(SteadyClock::now() + 1s), 1);
  EXPECT_EQ(r.calls, 1);
  loop->remove(p[0]);
  ::close(p[0]);
  ::close(p[1]);
}

TEST(EventLoop, WakeFromAnotherThreadEndsAnIndefiniteWait) {
  auto loop = EventLoop::create();
  ASSERT_TRUE(loop);
  std::thread t([&] { loop->wake(); });
  EXPECT_EQ(loop->poll(SteadyTime::max()), 0);
  t.join();
}
