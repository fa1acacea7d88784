#include "engine/coalesce_auto.h"

#include <algorithm>

namespace openloop::engine {

AutoCoalesce::AutoCoalesce(Nanos lateness_bound)
    : m_cap(std::min(k_ceiling, (lateness_bound.count() > 0 ? lateness_bound : Nanos(std::chrono::milliseconds(1))) / 2)) {}

Nanos AutoCoalesce::window_for(Nanos p10_service) const {
  const Nanos w = std::min(p10_service / 10, m_cap);
  return w < k_floor ? Nanos(0) : w;
}

Nanos AutoCoalesce::update(const hdr::Histogram& service_time) {
  if (service_time.total_count() >= k_min_samples)
    m_window = window_for(Nanos(service_time.value_at_percentile(10)));
  return m_window;
}

}  // namespace openloop::engine
