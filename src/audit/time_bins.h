// Requests counted by send time in bins that widen as the run grows (at most k_max_bins from the first to the
// last, so memory and the feedback's walk over them stay flat).
#pragma once

#include <cstdint>
#include <map>

#include "core/time.h"
#include "hdr/histogram.h"

namespace openloop::audit {

class TimeBins {
 public:
  static constexpr std::size_t k_max_bins = 120;
  /// `origin`: the first send; `first_width`: the narrowest bin (doubled whenever the bins would exceed
  /// k_max_bins).
  TimeBins(Nanos origin, Nanos first_width) : m_origin(origin), m_width(first_width) {}

  /// Counts a request sent at `start` that took `duration` (sends before the origin land in negative bins).
  void add(Nanos start, Nanos duration);

  struct Bin {
    std::int64_t sent = 0;
    hdr::Histogram latency_us{1, 3'600'000'000LL, 2};
  };
  Nanos width() const { return m_width; }
  Nanos origin() const { return m_origin; }
  /// Bins by index (offset = index × width from the origin).
  const std::map<std::int64_t, Bin>& bins() const { return m_bins; }

 private:
  void widen();
  Nanos m_origin, m_width;
  std::map<std::int64_t, Bin> m_bins;
};

}  // namespace openloop::audit
