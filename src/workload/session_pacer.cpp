// Replay sessions' rule and counts (workload/session_pacer.h).
#include "workload/session_pacer.h"

#include <algorithm>
#include <cassert>

namespace openloop::workload {

SessionPacer::SessionPacer(std::size_t max_held) : m_max_held(std::max<std::size_t>(1, max_held)) {
  m_index.resize(1024);
}

std::uint32_t SessionPacer::find_or_open(std::uint64_t key) {
  assert(key != 0);
  for (std::size_t b = bucket(key);; b = (b + 1) & (m_index.size() - 1)) {
    if (m_index[b].first == key) return m_index[b].second;
    if (m_index[b].first == 0) break;
  }
  std::uint32_t s;
  if (!m_free_sessions.empty()) {
    s = m_free_sessions.back();
    m_free_sessions.pop_back();
  } else {
    s = static_cast<std::uint32_t>(m_sessions.size());
    m_sessions.emplace_back();
  }
  m_sessions[s] = Session{};
  m_sessions[s].key = key;
  if (2 * (m_open + 1) > m_index.size()) grow_index();
  index_put(key, s);
  ++m_open;
  m_counts.sessions_peak = std::max<std::uint64_t>(m_counts.sessions_peak, m_open);
  return s;
}

void SessionPacer::index_put(std::uint64_t key, std::uint32_t session) {
  std::size_t b = bucket(key);
  while (m_index[b].first != 0) b = (b + 1) & (m_index.size() - 1);
  m_index[b] = {key, session};
}

void SessionPacer::index_erase(std::uint64_t key) {
  const std::size_t mask = m_index.size() - 1;
  std::size_t b = bucket(key);
  while (m_index[b].first != key) {
    if (m_index[b].first == 0) return;
    b = (b + 1) & mask;
  }
  // Backward-shift deletion: move every later entry of the run that may sit at the hole into it.
  for (std::size_t next = (b + 1) & mask; m_index[next].first != 0; next = (next + 1) & mask) {
    const std::size_t home = bucket(m_index[next].first);
    if (((next - home) & mask) >= ((next - b) & mask)) {
      m_index[b] = m_index[next];
      b = next;
    }
  }
  m_index[b] = {0, 0};
}

void SessionPacer::grow_index() {
  std::vector<std::pair<std::uint64_t, std::uint32_t>> old(m_index.size() * 2);
  old.swap(m_index);
  for (const auto& [key, s] : old)
    if (key != 0) index_put(key, s);
}

Nanos SessionPacer::lag_at(const Session& s, Nanos at) const {
  return at - s.last_at >= k_visit_gap ? Nanos(0) : s.lag;
}

void SessionPacer::forget_if_idle(std::uint32_t s) {
  Session& S = m_sessions[s];
  if (S.key == 0 || S.busy || S.head != k_none) return;
  if (S.lag.count() > 0) {
    note_idle(s);
    return;
  }
  index_erase(S.key);
  S.key = 0;
  m_free_sessions.push_back(s);
  --m_open;
}

// Idle with a lag: kept until a record's absolute time shows the session's next one would start a new visit.
void SessionPacer::note_idle(std::uint32_t s) {
  if (m_lagged_count == m_lagged.size()) {
    std::vector<Lagged> grown(std::max<std::size_t>(64, 2 * m_lagged.size()));
    for (std::size_t i = 0; i < m_lagged_count; ++i)
      grown[i] = m_lagged[(m_lagged_head + i) % m_lagged.size()];
    m_lagged.swap(grown);
    m_lagged_head = 0;
  }
  m_lagged[(m_lagged_head + m_lagged_count) % m_lagged.size()] =
      Lagged{m_sessions[s].key, s, m_sessions[s].last_at + k_visit_gap};
  ++m_lagged_count;
}

// Records come in order of their absolute times, so once one at `at` has come, a session idle since a record
// k_visit_gap or more before it can only see records that start a new visit: its lag no longer matters. An
// entry whose session has gone busy again, or been forgotten and reused, is dropped (a later one stands for
// it).
void SessionPacer::forget_past_visits(Nanos at) {
  while (m_lagged_count > 0 && m_lagged[m_lagged_head].until <= at) {
    const Lagged l = m_lagged[m_lagged_head];
    m_lagged_head = (m_lagged_head + 1) % m_lagged.size();
    --m_lagged_count;
    Session& S = m_sessions[l.session];
    if (S.key != l.key || S.busy || S.head != k_none || S.last_at + k_visit_gap != l.until) continue;
    S.lag = Nanos(0);
    forget_if_idle(l.session);
  }
}

void SessionPacer::count_sent(Session& s, Nanos at, Nanos due) {
  s.lag = due - at;
  s.last_at = at;
  s.busy = true;
  if (due > at) {
    ++m_counts.delayed;
    m_counts.delay += due - at;
  }
}

SessionPacer::Arrival SessionPacer::arrive(std::uint64_t key, Nanos at, Nanos now) {
  forget_past_visits(at);
  const std::uint32_t s = find_or_open(key);
  const bool idle = !m_sessions[s].busy && m_sessions[s].head == k_none;
  const Nanos due = at + lag_at(m_sessions[s], at);
  if (idle && due <= now) {
    count_sent(m_sessions[s], at, due);
    return Arrival{Arrival::Kind::send, s, k_none, due};
  }
  if (m_held_count >= m_max_held) {
    ++m_counts.overflow;
    forget_if_idle(s);
    return Arrival{Arrival::Kind::full, k_none, k_none, Nanos::max()};
  }
  std::uint32_t h;
  if (!m_free_held.empty()) {
    h = m_free_held.back();
    m_free_held.pop_back();
  } else {
    h = static_cast<std::uint32_t>(m_held.size());
    m_held.emplace_back();
  }
  m_held[h] = Held{at, k_none};
  ++m_held_count;
  m_counts.held_peak = std::max<std::uint64_t>(m_counts.held_peak, m_held_count);
  Session& S = m_sessions[s];
  if (S.tail == k_none) {
    S.head = S.tail = h;
  } else {
    m_held[S.tail].next = h;
    S.tail = h;
  }
  // An idle session's only held record waits out the session's lag; otherwise it waits for a response.
  if (idle) S.head_due = due;
  return Arrival{Arrival::Kind::hold, s, h, idle ? due : Nanos::max()};
}

Nanos SessionPacer::done(std::uint32_t s, Nanos now) {
  Session& S = m_sessions[s];
  S.busy = false;
  if (S.head == k_none) {
    forget_if_idle(s);
    return Nanos::max();
  }
  S.head_due = std::max(m_held[S.head].at + lag_at(S, m_held[S.head].at), now);
  return S.head_due;
}

SessionPacer::Taken SessionPacer::take(std::uint32_t s, Nanos now) {
  if (s >= m_sessions.size()) return {};
  Session& S = m_sessions[s];
  if (S.key == 0 || S.busy || S.head == k_none || S.head_due > now) return {};
  const std::uint32_t h = S.head;
  const Taken t{h, m_held[h].at, S.head_due};
  S.head = m_held[h].next;
  if (S.head == k_none) S.tail = k_none;
  S.head_due = Nanos::max();
  m_free_held.push_back(h);
  --m_held_count;
  count_sent(S, t.at, t.due);
  return t;
}

void SessionPacer::clear() {
  std::fill(m_index.begin(), m_index.end(), std::pair<std::uint64_t, std::uint32_t>{0, 0});
  m_free_sessions.clear();
  for (std::uint32_t s = 0; s < m_sessions.size(); ++s) {
    m_sessions[s] = Session{};
    m_free_sessions.push_back(s);
  }
  m_free_held.clear();
  for (std::uint32_t h = 0; h < m_held.size(); ++h) m_free_held.push_back(h);
  m_held_count = 0;
  m_open = 0;
  m_lagged_head = m_lagged_count = 0;
}

std::size_t SessionPacer::footprint_bytes() const {
  return m_sessions.capacity() * sizeof(Session) + m_free_sessions.capacity() * sizeof(std::uint32_t) +
         m_index.capacity() * sizeof(m_index[0]) + m_held.capacity() * sizeof(Held) +
         m_free_held.capacity() * sizeof(std::uint32_t) + m_lagged.capacity() * sizeof(Lagged);
}

}  // namespace openloop::workload
