// A min-heap of absolute deadlines for one thread; no allocation once reserved.
#pragma once

#include <cstdint>
#include <vector>

#include "core/time.h"

namespace openloop::net {

/// Something to call when a deadline passes. `cookie` is the value given to TimerQueue::schedule.
class TimerHandler {
 public:
  virtual ~TimerHandler() = default;
  virtual void on_timer(std::uint64_t cookie) = 0;
};

/// Timers ordered by deadline (ties in scheduling order). Single-threaded.
/// There is no cancel: a handler that no longer wants a timer ignores it, typically by putting a
/// generation number in the cookie and comparing it when the timer fires. That keeps every
/// operation O(log n) with no bookkeeping.
class TimerQueue {
 public:
  /// Reserves room for `capacity` pending timers (more are allowed, at the cost of a reallocation).
  explicit TimerQueue(std::size_t capacity = 1024) { m_heap.reserve(capacity); }

  /// Schedules handler->on_timer(cookie) at `deadline`.
  void schedule(SteadyTime deadline, TimerHandler* handler, std::uint64_t cookie = 0);
  /// Earliest pending deadline, or SteadyTime::max() when none.
  SteadyTime next_deadline() const { return m_heap.empty() ? SteadyTime::max() : m_heap.front().deadline; }
  /// Fires every timer whose deadline is ≤ now, in deadline order. Returns how many fired.
  /// Handlers may schedule new timers while being called (a new timer already due fires in this call).
  int fire_due(SteadyTime now);
  /// Number of pending timers.
  std::size_t size() const { return m_heap.size(); }

 private:
  struct Entry {
    SteadyTime deadline;
    std::uint64_t seq;
    TimerHandler* handler;
    std::uint64_t cookie;
  };
  static bool later(const Entry& a, const Entry& b) {
    return a.deadline != b.deadline ? a.deadline > b.deadline : a.seq > b.seq;
  }

  std::vector<Entry> m_heap;
  std::uint64_t m_seq = 0;
};

}  // namespace openloop::net
