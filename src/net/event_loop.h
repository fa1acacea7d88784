// A per-thread epoll event loop with nanosecond wake-up deadlines (epoll_pwait2); nothing rounded to
// milliseconds. The loop is also the engine's clock and socket factory, so one object carries time and I/O:
// the kernel's, or a simulated network's (net/simulated_network.h).
#pragma once

#include <cstdint>
#include <vector>

#include <sys/epoll.h>

#include "core/error.h"
#include "core/time.h"
#include "net/resolver.h"
#include "net/simulated_network.h"

namespace openloop::net {

/// Receives readiness events for one registered file descriptor. Called on the loop's thread only.
class IoHandler {
 public:
  virtual ~IoHandler() = default;
  /// `events` is the epoll mask (EPOLLIN, EPOLLOUT, EPOLLERR, EPOLLHUP, EPOLLRDHUP).
  virtual void on_io(std::uint32_t events) = 0;
};

/// How poll() waits for its deadline.
enum class WaitMode : std::uint8_t {
  automatic,  ///< epoll_pwait2 where the kernel has it (Linux ≥ 5.11), else a timerfd
  timerfd,    ///< an absolute CLOCK_MONOTONIC timerfd in the epoll set, then epoll_wait (one more syscall)
};

/// One epoll instance, owned and used by a single thread (the only cross-thread call is wake()).
/// The loop does not own handlers or fds; a handler must remove its fd before it is destroyed.
///
/// A simulated loop (simulated()) has no epoll instance: every call below goes to its SimulatedNetwork,
/// whose virtual clock now() returns. The production path pays one predictable branch per call, never a
/// virtual call (docs/architecture.md, Decisions: the time and I/O seam).
class EventLoop {
 public:
  /// Creates the epoll fd and the wake-up eventfd; sets this thread's timer slack to 1 ns on first poll
  /// (Linux's default 50 µs slack otherwise dominates wake-up error; see DESIGN.md). Where epoll_pwait2 is
  /// missing (older kernels, some sandboxes and emulators answer ENOSYS) the deadline is a timerfd instead:
  /// nanosecond deadlines either way.
  static Result<EventLoop> create(WaitMode mode = WaitMode::automatic);
  /// A loop whose clock, readiness and sockets are `net`'s (which must outlive the loop).
  static EventLoop simulated(SimulatedNetwork& net);
  EventLoop(EventLoop&& other) noexcept;
  EventLoop& operator=(EventLoop&&) = delete;
  EventLoop(const EventLoop&) = delete;
  ~EventLoop();

  /// Registers fd for `events` (EPOLLIN | EPOLLOUT | ...). Returns false if epoll_ctl fails (errno kept).
  bool add(int fd, std::uint32_t events, IoHandler* handler);
  /// Changes the event mask / handler of a registered fd.
  bool modify(int fd, std::uint32_t events, IoHandler* handler);
  /// Unregisters fd (call before close(fd)). Events already fetched in the current poll may still be
  /// delivered to its handler, so handlers must tolerate spurious readiness (non-blocking I/O does).
  void remove(int fd);

  /// Waits for readiness until the absolute `deadline` (steady clock) and dispatches handlers.
  /// A deadline in the past polls without blocking. Returns the number of handlers called, or -1 when the
  /// wait failed: interrupted by a signal (EINTR, harmless: poll again), or any other error, which failure()
  /// then holds.
  int poll(SteadyTime deadline);
  /// The errno of the first wait that failed for a reason other than EINTR (0: none). Such a failure (e.g.
  /// EBADF, EINVAL) does not go away by retrying: a loop that kept polling would spin without ever reading a
  /// socket, so its owner must stop and say so.
  int failure() const { return m_failure; }
  /// Sleeps until `t` whatever becomes ready meanwhile (no descriptor can wake it; wake() cannot either),
  /// then dispatches what is ready without blocking. Returns as poll() does.
  int poll_after(SteadyTime t);

  /// The loop's clock: the steady clock, or the simulated network's virtual time.
  SteadyTime now() const { return m_sim == nullptr ? SteadyClock::now() : m_sim->now(); }
  /// The simulated network behind this loop, or null for the kernel's.
  SimulatedNetwork* simulated_network() const { return m_sim; }
  /// Starts a non-blocking connection to `ep` (tcp_connect_nonblocking, or the simulated network's):
  /// a descriptor ≥ 0 that is connecting or connected, or -errno.
  int connect(const Endpoint& ep);
  /// After the connecting descriptor is writable: 0 when connected, else the errno of the failure.
  int connect_result(int fd);
  /// Closes a descriptor returned by connect() that no Transport has taken over yet.
  void close_socket(int fd);

  /// Makes a poll() in progress on another thread return early. Async-signal-safe.
  void wake();

  /// The CPU one timed wait costs on this thread and machine, measured now: four batches of 32 waits of 10 µs
  /// (a few milliseconds), the cheapest batch's mean kept; call before any fd is registered. A wait that ends
  /// by its deadline arms a kernel timer and sleeps; under a hypervisor that traps timer programming this was
  /// measured at 15–18 µs of CPU per wait, against 0.3 µs for a poll that does not block (bench/wait_cost).
  Nanos timed_wait_cost();

  /// True when deadlines are kept by a timerfd (no epoll_pwait2).
  bool uses_timerfd() const { return m_timerfd >= 0; }

 private:
  EventLoop(int epfd, int wakefd, int timerfd);
  int wait(SteadyTime deadline, SteadyTime now);
  void set_timer_slack();
  int m_epfd = -1;
  int m_wakefd = -1;
  int m_timerfd = -1;                      // −1: epoll_pwait2 keeps the deadline
  SteadyTime m_armed = SteadyTime::max();  // the timerfd's current expiry (max: disarmed)
  bool m_slack_set = false;
  int m_failure = 0;
  std::vector<epoll_event> m_events;
  SimulatedNetwork* m_sim = nullptr;  // null: the kernel's epoll, sockets and steady clock
};

}  // namespace openloop::net
