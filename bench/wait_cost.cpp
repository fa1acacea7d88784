// What waiting costs the generator on this machine: CPU and lateness of a timed sleep in the event loop, of a
// sleep ended by an event from another thread, and of a poll that does not block. The worker's --spin-below
// default comes from the first figure (EventLoop::timed_wait_cost). Prints one line per kind of wait.
// Usage: wait_cost [WAITS]   (default 20000 of each)
#include <sys/eventfd.h>
#include <unistd.h>
#include <ctime>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "net/event_loop.h"

namespace {
using namespace std::chrono_literals;
using openloop::Nanos;
using openloop::SteadyClock;
using openloop::SteadyTime;
using openloop::net::EventLoop;

double thread_cpu_us() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) / 1e3;
}

struct Counter : openloop::net::IoHandler {
  int fd = -1;
  long seen = 0;
  void on_io(std::uint32_t) override {
    std::uint64_t v = 0;
    if (::read(fd, &v, sizeof v) == sizeof v) seen += static_cast<long>(v);
  }
};
}  // namespace

int main(int argc, char** argv) {
  const long n = argc > 1 ? std::atol(argv[1]) : 20000;
  auto loop = EventLoop::create();
  if (!loop) return 1;
  loop->poll(SteadyTime{});
  for (const Nanos wait : {Nanos(0), Nanos(10us), Nanos(50us)}) {
    double late_us = 0;
    const double cpu0 = thread_cpu_us();
    for (long i = 0; i < n; ++i) {
      const SteadyTime deadline = SteadyClock::now() + wait;
      loop->poll(deadline);
      late_us += std::chrono::duration<double, std::micro>(SteadyClock::now() - deadline).count();
    }
    std::printf("%s %3lld us: CPU %.2f us per wait, woke %.2f us late on average\n",
                wait.count() == 0 ? "non-blocking poll   " : "timed wait of       ",
                static_cast<long long>(wait.count() / 1000),
                (thread_cpu_us() - cpu0) / static_cast<double>(n), late_us / static_cast<double>(n));
  }
  // A wait with no deadline, ended by an eventfd written every 50 µs by another thread (which spins to keep
  // time).
  std::printf("EventLoop::timed_wait_cost(): %.2f us (the --spin-below default, capped at 30 us)\n",
              static_cast<double>(loop->timed_wait_cost().count()) / 1000.0);
  const int efd = eventfd(0, EFD_NONBLOCK);
  if (efd < 0) return 1;
  Counter c;
  c.fd = efd;
  loop->add(efd, EPOLLIN, &c);
  std::atomic<bool> done{false};
  std::thread writer([&] {
    SteadyTime next = SteadyClock::now();
    for (long i = 0; i < n && !done.load(); ++i) {
      next += 50us;
      while (SteadyClock::now() < next) {
      }
      std::uint64_t one = 1;
      [[maybe_unused]] auto w = ::write(efd, &one, sizeof one);
    }
  });
  const double cpu0 = thread_cpu_us();
  long wakes = 0;
  const SteadyTime give_up = SteadyClock::now() + 30s;
  while (c.seen < n && SteadyClock::now() < give_up) {
    loop->poll(give_up);
    ++wakes;
  }
  done = true;
  writer.join();
  std::printf("wait ended by an event: CPU %.2f us per wake-up (%ld wake-ups for %ld events)\n",
              (thread_cpu_us() - cpu0) / static_cast<double>(wakes), wakes, c.seen);
  return 0;
}
