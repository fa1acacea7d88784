// One sender's gaps, think times and overlaps.
#include "audit/sender_stats.h"

namespace openloop::audit {

void SenderStats::add(const Record& r, Nanos tolerance) {
  if (m_requests > 0) {
    m_intervals_us.record(std::max<std::int64_t>(0, (r.start - m_last_start).count() / 1000));
    const Nanos think = r.start - m_last_end;
    if (think < -tolerance) {
      ++m_overlaps;
    } else {
      const Nanos z = std::max(think, Nanos(0));
      if (think <= tolerance) ++m_back_to_back;
      ++m_waits;
      m_think_sum += z;
      const double rs = to_seconds(m_last_end - m_last_start);
      const double zs = to_seconds(z);
      sum_r += rs;
      sum_z += zs;
      sum_rr += rs * rs;
      sum_rz += rs * zs;
    }
  }
  ++m_requests;
  m_last_start = r.start;
  m_last_end = r.start + r.duration;
}

Nanos SenderStats::median_interval() const {
  if (m_intervals_us.total_count() == 0) return Nanos(0);
  // The bucket's lowest value: a round interval (10 ms) reads back exact, any other within 1 % (2 digits).
  return Nanos(m_intervals_us.lowest_equivalent(m_intervals_us.value_at_percentile(50)) * 1000);
}

}  // namespace openloop::audit
