// Clocks: the real steady clock and a manual clock that tests advance by hand (no sleeps in unit tests).
#pragma once

#include <algorithm>
#include <ctime>

#include "core/time.h"

namespace openloop {

/// Source of "now". Everything time-dependent takes one, so tests can substitute ManualClock.
class Clock {
 public:
  virtual ~Clock() = default;
  /// Current time; monotonic, never goes backwards. Thread-safe for the real clock.
  virtual SteadyTime now() const = 0;
};

/// The process's steady clock (CLOCK_MONOTONIC).
class RealClock final : public Clock {
 public:
  SteadyTime now() const override { return SteadyClock::now(); }
};

/// The resolution of the process's steady clock (clock_getres(CLOCK_MONOTONIC); 1 ns on Linux with
/// high-resolution timers). Intended times closer together than this cannot be told apart. Thread-safe.
inline Nanos steady_clock_resolution() {
  timespec ts{};
  if (clock_getres(CLOCK_MONOTONIC, &ts) != 0) return Nanos(1);
  return std::max(Nanos(1), Nanos(ts.tv_sec * 1'000'000'000LL + ts.tv_nsec));
}

/// A clock that only moves when told to. Not thread-safe: one test thread drives it.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(SteadyTime start = SteadyTime{}) : m_now(start) {}
  SteadyTime now() const override { return m_now; }
  void advance(Nanos d) { m_now += d; }
  void set(SteadyTime t) { m_now = t; }

 private:
  SteadyTime m_now;
};

}  // namespace openloop
