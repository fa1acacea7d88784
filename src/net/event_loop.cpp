// epoll_pwait2-based loop: the timeout is a timespec with nanosecond resolution.
#include "net/event_loop.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>

#include <fmt/format.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace openloop::net {

namespace {
constexpr int k_max_events = 256;
// Marks the wake-up eventfd in epoll_event.data.
IoHandler* const k_wake_tag = nullptr;
}  // namespace

Result<EventLoop> EventLoop::create() {
  int epfd = epoll_create1(EPOLL_CLOEXEC);
  if (epfd < 0) return runtime_error(fmt::format("epoll_create1: {}", std::strerror(errno)));
  int wakefd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (wakefd < 0) {
    ::close(epfd);
    return runtime_error(fmt::format("eventfd: {}", std::strerror(errno)));
  }
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.ptr = k_wake_tag;
  if (epoll_ctl(epfd, EPOLL_CTL_ADD, wakefd, &ev) != 0) {
    ::close(epfd);
    ::close(wakefd);
    return runtime_error(fmt::format("epoll_ctl(eventfd): {}", std::strerror(errno)));
  }
  return EventLoop(epfd, wakefd);
}

EventLoop::EventLoop(int epfd, int wakefd) : m_epfd(epfd), m_wakefd(wakefd), m_events(k_max_events) {}

EventLoop::EventLoop(EventLoop&& other) noexcept
    : m_epfd(other.m_epfd),
      m_wakefd(other.m_wakefd),
      m_slack_set(other.m_slack_set),
      m_events(std::move(other.m_events)) {
  other.m_epfd = -1;
  other.m_wakefd = -1;
}

EventLoop::~EventLoop() {
  if (m_epfd >= 0) ::close(m_epfd);
  if (m_wakefd >= 0) ::close(m_wakefd);
}

bool EventLoop::add(int fd, std::uint32_t events, IoHandler* handler) {
  epoll_event ev{};
  ev.events = events;
  ev.data.ptr = handler;
  return epoll_ctl(m_epfd, EPOLL_CTL_ADD, fd, &ev) == 0;
}

bool EventLoop::modify(int fd, std::uint32_t events, IoHandler* handler) {
  epoll_event ev{};
  ev.events = events;
  ev.data.ptr = handler;
  return epoll_ctl(m_epfd, EPOLL_CTL_MOD, fd, &ev) == 0;
}

void EventLoop::remove(int fd) {
  epoll_event ev{};
  epoll_ctl(m_epfd, EPOLL_CTL_DEL, fd, &ev);
}

int EventLoop::poll(SteadyTime deadline) {
  if (!m_slack_set) {
    prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
    m_slack_set = true;
  }
  const auto now = SteadyClock::now();
  timespec ts{};
  timespec* tsp = &ts;
  if (deadline == SteadyTime::max()) {
    tsp = nullptr;
  } else if (deadline > now) {
    const auto wait = std::chrono::duration_cast<Nanos>(deadline - now).count();
    ts.tv_sec = static_cast<time_t>(wait / 1'000'000'000);
    ts.tv_nsec = static_cast<long>(wait % 1'000'000'000);
  }
  const int n = epoll_pwait2(m_epfd, m_events.data(), static_cast<int>(m_events.size()), tsp, nullptr);
  if (n < 0) return -1;
  int dispatched = 0;
  for (int i = 0; i < n; ++i) {
    auto* handler = static_cast<IoHandler*>(m_events[static_cast<std::size_t>(i)].data.ptr);
    if (handler == k_wake_tag) {
      std::uint64_t v;
      [[maybe_unused]] auto r = ::read(m_wakefd, &v, sizeof v);
      continue;
    }
    handler->on_io(m_events[static_cast<std::size_t>(i)].events);
    ++dispatched;
  }
  return dispatched;
}

void EventLoop::wake() {
  std::uint64_t one = 1;
  [[maybe_unused]] auto r = ::write(m_wakefd, &one, sizeof one);
}

}  // namespace openloop::net
