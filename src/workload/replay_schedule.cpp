// A trace as an absolute schedule (workload/replay_schedule.h).
#include "workload/replay_schedule.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace openloop::workload {
namespace {

// The heap's order: the smallest stamp on top, file order among equal stamps.
bool later(const auto& a, const auto& b) { return a.t != b.t ? a.t > b.t : a.seq > b.seq; }

}  // namespace

ReplaySchedule::ReplaySchedule(TraceReader reader, ReplayOptions options, TracePrivacy privacy, unsigned lane,
                               unsigned lanes)
    : ReplaySchedule(std::move(reader), std::move(options), std::move(privacy), ReplayLane{{0}, 0, lane, lanes}) {}

ReplaySchedule::ReplaySchedule(TraceReader reader, ReplayOptions options, TracePrivacy privacy, ReplayLane lane)
    : m_reader(std::move(reader)),
      m_options(std::move(options)),
      m_privacy(std::move(privacy)),
      m_lane(std::move(lane)) {
  assert(m_lane.workers >= 1 && m_lane.worker < m_lane.workers && !m_lane.owners.empty() && m_options.speed > 0);
  start_pass();
}

bool ReplaySchedule::mine(std::uint64_t index) {
  const std::uint64_t cycle = m_lane.owners.size();
  if (m_session != 0) {
    return m_lane.owners[m_session % cycle] == m_lane.shard && (m_session / cycle) % m_lane.workers == m_lane.worker;
  }
  if (m_lane.owners[index % cycle] != m_lane.shard) return false;
  return m_shard_records++ % m_lane.workers == m_lane.worker;
}

void ReplaySchedule::start_pass() {
  m_held.clear();
  m_eof = false;
  m_any_read = false;
  m_any_released = false;
  m_shift = Nanos{0};
  m_pass_records = 0;
  ++m_counts.passes;
}

Result<void> ReplaySchedule::fill() {
  while (!m_eof && (m_held.empty() ||
                    (m_newest - m_held.front().t <= m_options.window && m_held.size() < m_options.window_records))) {
    if (!OPENLOOP_TRY(m_reader.next(m_read))) {
      m_eof = true;
      break;
    }
    if (!m_any_read) {
      m_any_read = true;
      m_first = m_read.t;
      m_newest = m_read.t;
    }
    const Nanos since_first = m_read.t - m_first;
    if ((m_options.from && since_first < *m_options.from) || (m_options.to && since_first > *m_options.to)) {
      if (m_counts.passes == 1) ++m_counts.outside;
      // Past the window's end by more than the read-ahead: no later line can fall inside it.
      if (m_options.to && since_first > *m_options.to + m_options.window) m_eof = true;
      continue;
    }
    m_newest = std::max(m_newest, m_read.t);
    m_held.push_back(Held{m_read.t, m_seq++, std::move(m_read)});
    std::push_heap(m_held.begin(), m_held.end(), [](const Held& a, const Held& b) { return later(a, b); });
  }
  return {};
}

Result<bool> ReplaySchedule::release(TraceRecord& out) {
  OPENLOOP_TRY_VOID(fill());
  if (m_held.empty()) return false;
  std::pop_heap(m_held.begin(), m_held.end(), [](const Held& a, const Held& b) { return later(a, b); });
  out = std::move(m_held.back().record);
  m_held.pop_back();
  return true;
}

Result<std::optional<Nanos>> ReplaySchedule::next() {
  while (!m_ended) {
    if (!OPENLOOP_TRY(release(m_current))) {
      // The pass is over: again from the top with --loop (unless it scheduled nothing: it never would).
      if (m_options.loop_period.count() <= 0 || m_pass_records == 0) break;
      OPENLOOP_TRY_VOID(m_reader.rewind());
      start_pass();
      continue;
    }
    Nanos t = m_current.t;
    if (m_any_released && t < m_prev) {
      ++m_counts.late;
      t = m_prev;
    }
    if (m_any_released && m_options.max_gap.count() > 0 && t - m_prev > m_options.max_gap) {
      const Nanos cut = t - m_prev - m_options.max_gap;
      m_shift += cut;
      if (m_counts.passes == 1) {
        ++m_counts.gaps_compressed;
        m_counts.compressed += cut;
      }
    }
    if (!m_any_released) m_origin = t;
    m_any_released = true;
    m_prev = t;
    const auto trace_offset = static_cast<double>((t - m_shift - m_origin).count());
    const Nanos offset = Nanos(std::llround(trace_offset / m_options.speed)) +
                         m_options.loop_period * static_cast<std::int64_t>(m_counts.passes - 1);
    if (offset >= m_options.end) break;
    if (m_counts.passes == 1) m_last_offset = offset;
    ++m_counts.records;
    ++m_pass_records;
    const std::uint64_t index = m_index++;
    // The session is read before the privacy rules drop the Cookie or Authorization it may be in.
    m_session = session_hash(m_options.session_key, m_current);
    if (m_session != 0 && m_counts.passes == 1) ++m_counts.keyed;
    if (!mine(index)) continue;
    m_privacy.apply(m_current);
    return offset;
  }
  m_ended = true;
  return std::optional<Nanos>{};
}

}  // namespace openloop::workload
