// Per-second rolling of the model's counters into a fixed ring (no allocation while counting).
#include "lab/model_stats.h"

#include <algorithm>
#include <chrono>

namespace openloop::lab {

void ModelStats::roll(Nanos since_start, std::size_t queue_depth) {
  const std::int64_t second = std::chrono::duration_cast<std::chrono::seconds>(since_start).count();
  if (second <= m_current.second) return;
  // Seconds with no events still appear (as zeros), but at most a ring's worth of them.
  const std::int64_t first_empty =
      std::max(m_current.second + 1, second - static_cast<std::int64_t>(k_history_seconds));
  auto push = [&](const SecondStats& s) {
    m_ring[m_ring_next] = s;
    m_ring_next = (m_ring_next + 1) % k_history_seconds;
    m_ring_size = std::min(m_ring_size + 1, k_history_seconds);
  };
  push(m_current);
  for (std::int64_t s = first_empty; s < second; ++s) push(SecondStats{s, {}, queue_depth});
  m_current = SecondStats{second, {}, queue_depth};
}

void ModelStats::note_queue_depth(std::size_t depth) {
  m_current.max_queue_depth = std::max(m_current.max_queue_depth, depth);
}

std::vector<SecondStats> ModelStats::history() const {
  std::vector<SecondStats> out;
  out.reserve(m_ring_size + 1);
  const std::size_t first = (m_ring_next + k_history_seconds - m_ring_size) % k_history_seconds;
  for (std::size_t i = 0; i < m_ring_size; ++i) out.push_back(m_ring[(first + i) % k_history_seconds]);
  out.push_back(m_current);
  return out;
}

}  // namespace openloop::lab
