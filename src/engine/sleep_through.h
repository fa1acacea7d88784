// The precise open model over HTTP/2: when the worker sleeps through responses to its next arrival and reads
// them on that wake, each timed by the kernel's receive stamp (docs/http2.md, "Sleeping through responses").
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>

#include "core/time.h"

namespace openloop::engine {

/// The longest wait slept through: a response that comes during it is read at most this late. Its completion
/// is the kernel's receive time of the last segment in that read, so it reads late (never early) by at most
/// the time between that segment and its own, less than this.
inline constexpr Nanos k_sleep_through_horizon = std::chrono::microseconds(100);

/// What the worker knows when it is about to wait.
struct SleepThroughState {
  bool eligible = false;  ///< the plan allows it: open model, HTTP/2, precise, receive stamps on
  SteadyTime now{};       ///< when the wait begins
  SteadyTime wake{};      ///< the loop's next deadline
  std::optional<SteadyTime> next_arrival;  ///< the next open-model arrival, none when the schedule is over
  std::size_t queued = 0;                  ///< arrivals waiting for a stream (--on-saturation queue)
  bool connecting = false;                 ///< a connection is being set up (or may be: too many to look)
};

/// True when the wait ends at the next arrival, which is due within k_sleep_through_horizon, and nothing
/// waits for a response to be read before then: a queued arrival waits for the stream a response frees, and a
/// connection's connect and handshake are timed and carry requests waiting for them, so those are read at
/// once. Any other wake (a timer, a deadline, a handover) is waited for on the sockets, as ever.
inline bool sleeps_through_responses(const SleepThroughState& s) {
  return s.eligible && s.queued == 0 && !s.connecting && s.next_arrival && *s.next_arrival == s.wake &&
         s.wake - s.now <= k_sleep_through_horizon;
}

}  // namespace openloop::engine
