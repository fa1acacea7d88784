// --coalesce auto: the wake-up window derived from the service times being measured, recomputed once per
// interval off the hot path (docs/performance.md, "--coalesce auto").
#pragma once

#include <chrono>
#include <cstdint>

#include "core/time.h"
#include "hdr/histogram.h"

namespace openloop::engine {

/// RunPlan::coalesce's value for --coalesce auto (a real window is 0 or more).
inline constexpr Nanos k_coalesce_auto{-1};

/// The rule: a tenth of the interval's p10 service time, capped by half the send-lateness bound (so coalesced
/// sends stay well within it) and by a ceiling; a window under 1 µs is no window (the precise loop). An
/// interval with fewer than `min_samples` service times keeps the previous window. A fast loopback target
/// (p10 40 µs) is driven at a 4 µs window, nearly precise; a 5 ms remote one at 500 µs, cheaply.
class AutoCoalesce {
 public:
  static constexpr Nanos k_ceiling = std::chrono::milliseconds(1);
  static constexpr Nanos k_floor = std::chrono::microseconds(1);
  static constexpr std::int64_t k_min_samples = 20;

  /// `lateness_bound`: --max-lateness, or 0 for the verdict's default floor (1 ms).
  explicit AutoCoalesce(Nanos lateness_bound);

  /// The window for a p10 service time (the rule alone).
  Nanos window_for(Nanos p10_service) const;
  /// One interval's service times have been measured: returns the window from now on.
  Nanos update(const hdr::Histogram& service_time);
  Nanos window() const { return m_window; }
  Nanos cap() const { return m_cap; }

 private:
  Nanos m_cap;
  Nanos m_window{0};  // precise until something is measured
};

}  // namespace openloop::engine
