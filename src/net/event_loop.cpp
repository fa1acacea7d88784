// epoll_pwait2-based loop: the timeout is a timespec with nanosecond resolution. Where the kernel lacks
// epoll_pwait2, an absolute timerfd in the epoll set keeps the same nanosecond deadline.
#include "net/event_loop.h"

#include <algorithm>
#include <cerrno>
#include <ctime>

#include <fmt/format.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "core/thread_cpu.h"
#include "net/errno_text.h"
#include "net/transport.h"

namespace openloop::net {

namespace {
constexpr int k_max_events = 256;
// Mark the wake-up eventfd and the deadline timerfd in epoll_event.data.
IoHandler* const k_wake_tag = nullptr;
char g_timer_tag_storage;
void* const k_timer_tag = &g_timer_tag_storage;

timespec to_timespec(Nanos d) {
  return timespec{static_cast<time_t>(d.count() / 1'000'000'000),
                  static_cast<long>(d.count() % 1'000'000'000)};
}

bool has_epoll_pwait2(int epfd) {
  epoll_event ev{};
  timespec zero{};
  return epoll_pwait2(epfd, &ev, 1, &zero, nullptr) >= 0 || errno != ENOSYS;
}
}  // namespace

Result<EventLoop> EventLoop::create(WaitMode mode) {
  int epfd = epoll_create1(EPOLL_CLOEXEC);
  if (epfd < 0) return runtime_error(fmt::format("epoll_create1: {}", errno_text(errno)));
  int wakefd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (wakefd < 0) {
    const int err = errno;
    ::close(epfd);
    return runtime_error(fmt::format("eventfd: {}", errno_text(err)));
  }
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.ptr = k_wake_tag;
  if (epoll_ctl(epfd, EPOLL_CTL_ADD, wakefd, &ev) != 0) {
    const int err = errno;
    ::close(epfd);
    ::close(wakefd);
    return runtime_error(fmt::format("epoll_ctl(eventfd): {}", errno_text(err)));
  }
  int timerfd = -1;
  if (mode == WaitMode::timerfd || !has_epoll_pwait2(epfd)) {
    timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    ev.data.ptr = k_timer_tag;
    if (timerfd < 0 || epoll_ctl(epfd, EPOLL_CTL_ADD, timerfd, &ev) != 0) {
      const int err = errno;
      ::close(epfd);
      ::close(wakefd);
      if (timerfd >= 0) ::close(timerfd);
      return runtime_error(fmt::format("timerfd (no epoll_pwait2 on this kernel): {}", errno_text(err)));
    }
  }
  return EventLoop(epfd, wakefd, timerfd);
}

EventLoop::EventLoop(int epfd, int wakefd, int timerfd)
    : m_epfd(epfd), m_wakefd(wakefd), m_timerfd(timerfd), m_events(k_max_events) {}

EventLoop EventLoop::simulated(SimulatedNetwork& net) {
  EventLoop loop(-1, -1, -1);
  loop.m_sim = &net;
  loop.m_events.clear();
  return loop;
}

EventLoop::EventLoop(EventLoop&& other) noexcept
    : m_epfd(other.m_epfd),
      m_wakefd(other.m_wakefd),
      m_timerfd(other.m_timerfd),
      m_armed(other.m_armed),
      m_slack_set(other.m_slack_set),
      m_failure(other.m_failure),
      m_events(std::move(other.m_events)),
      m_sim(other.m_sim) {
  other.m_epfd = -1;
  other.m_wakefd = -1;
  other.m_timerfd = -1;
}

EventLoop::~EventLoop() {
  if (m_epfd >= 0) ::close(m_epfd);
  if (m_wakefd >= 0) ::close(m_wakefd);
  if (m_timerfd >= 0) ::close(m_timerfd);
}

bool EventLoop::add(int fd, std::uint32_t events, IoHandler* handler) {
  if (m_sim != nullptr) return m_sim->add(fd, events, handler);
  epoll_event ev{};
  ev.events = events;
  ev.data.ptr = handler;
  return epoll_ctl(m_epfd, EPOLL_CTL_ADD, fd, &ev) == 0;
}

bool EventLoop::modify(int fd, std::uint32_t events, IoHandler* handler) {
  if (m_sim != nullptr) return m_sim->modify(fd, events, handler);
  epoll_event ev{};
  ev.events = events;
  ev.data.ptr = handler;
  return epoll_ctl(m_epfd, EPOLL_CTL_MOD, fd, &ev) == 0;
}

void EventLoop::remove(int fd) {
  if (m_sim != nullptr) return m_sim->remove(fd);
  epoll_event ev{};
  epoll_ctl(m_epfd, EPOLL_CTL_DEL, fd, &ev);
}

int EventLoop::wait(SteadyTime deadline, SteadyTime now) {
  const int max = static_cast<int>(m_events.size());
  if (m_timerfd < 0) {
    timespec ts{};
    timespec* tsp = &ts;
    if (deadline == SteadyTime::max()) {
      tsp = nullptr;
    } else if (deadline > now) {
      ts = to_timespec(std::chrono::duration_cast<Nanos>(deadline - now));
    }
    return epoll_pwait2(m_epfd, m_events.data(), max, tsp, nullptr);
  }
  if (deadline <= now) return epoll_wait(m_epfd, m_events.data(), max, 0);
  if (deadline != m_armed) {
    // SteadyClock is CLOCK_MONOTONIC, so its time since epoch is the timerfd's absolute time (zero disarms).
    itimerspec spec{};
    if (deadline != SteadyTime::max()) spec.it_value = to_timespec(deadline.time_since_epoch());
    timerfd_settime(m_timerfd, TFD_TIMER_ABSTIME, &spec, nullptr);
    m_armed = deadline;
  }
  return epoll_wait(m_epfd, m_events.data(), max, -1);
}

void EventLoop::set_timer_slack() {
  if (m_slack_set) return;
  prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
  m_slack_set = true;
}

int EventLoop::poll(SteadyTime deadline) {
  if (m_sim != nullptr) return m_sim->poll(deadline);
  set_timer_slack();
  const int n = wait(deadline, SteadyClock::now());
  if (n < 0) {
    if (errno != EINTR && m_failure == 0) m_failure = errno;
    return -1;
  }
  int dispatched = 0;
  for (int i = 0; i < n; ++i) {
    void* tag = m_events[static_cast<std::size_t>(i)].data.ptr;
    if (tag == k_wake_tag || tag == k_timer_tag) {
      std::uint64_t v;
      [[maybe_unused]] auto r = ::read(tag == k_wake_tag ? m_wakefd : m_timerfd, &v, sizeof v);
      if (tag == k_timer_tag) m_armed = SteadyTime::max();  // expired: the next deadline re-arms it
      continue;
    }
    static_cast<IoHandler*>(tag)->on_io(m_events[static_cast<std::size_t>(i)].events);
    ++dispatched;
  }
  return dispatched;
}

int EventLoop::poll_after(SteadyTime t) {
  // Simulated: what becomes ready before t is dispatched when it does (simulate turns --coalesce off).
  if (m_sim != nullptr) return m_sim->poll(t);
  set_timer_slack();
  if (t > SteadyClock::now()) {
    // SteadyClock is CLOCK_MONOTONIC (see wait()); an absolute sleep is not lengthened by a signal's EINTR.
    const timespec until = to_timespec(t.time_since_epoch());
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, nullptr) == EINTR) {
    }
  }
  return poll(SteadyTime{});
}

Nanos EventLoop::timed_wait_cost() {
  // The cheapest of a few batches: another process running on this core only ever adds to a batch.
  constexpr int k_batches = 4, k_waits = 32;
  poll(SteadyTime{});  // sets the timer slack first
  Nanos best = Nanos::max();
  for (int b = 0; b < k_batches; ++b) {
    const Nanos before = thread_cpu_time();
    for (int i = 0; i < k_waits; ++i) poll(SteadyClock::now() + std::chrono::microseconds(10));
    best = std::min(best, (thread_cpu_time() - before) / k_waits);
  }
  return best;
}

int EventLoop::connect(const Endpoint& ep) {
  return m_sim != nullptr ? m_sim->connect(ep) : tcp_connect_nonblocking(ep);
}

int EventLoop::connect_result(int fd) {
  return m_sim != nullptr ? m_sim->connect_result(fd) : tcp_connect_result(fd);
}

void EventLoop::close_socket(int fd) {
  if (m_sim != nullptr) {
    m_sim->close(fd);
  } else {
    ::close(fd);
  }
}

void EventLoop::wake() {
  if (m_sim != nullptr) return;  // a simulated loop never blocks
  std::uint64_t one = 1;
  [[maybe_unused]] auto r = ::write(m_wakefd, &one, sizeof one);
}

}  // namespace openloop::net
