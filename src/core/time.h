// Time vocabulary: every time on the hot path is a steady-clock point or a nanosecond duration.
#pragma once

#include <chrono>

namespace openloop {

using Nanos = std::chrono::nanoseconds;
using SteadyClock = std::chrono::steady_clock;
using SteadyTime = SteadyClock::time_point;

/// Seconds as a double, for reports and rates (never on the hot path).
inline double to_seconds(Nanos d) {
  return std::chrono::duration<double>(d).count();
}
/// Milliseconds as a double, for reports.
inline double to_millis(Nanos d) {
  return std::chrono::duration<double, std::milli>(d).count();
}
/// Nearest nanosecond duration of s seconds.
inline Nanos from_seconds(double s) {
  return Nanos(static_cast<long long>(s * 1e9 + (s >= 0 ? 0.5 : -0.5)));
}

}  // namespace openloop
