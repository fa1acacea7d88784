// Replay sessions (--session-key): one session's records go in order, one at a time, each no earlier than its
// absolute time plus the delay its session has taken so far; the rule and its counts, on any clock.
#pragma once

#include <cstdint>
#include <vector>

#include "core/time.h"

namespace openloop::workload {

/// The partly-open rule of a replayed session (docs/replay.md "Sessions"). Record i of a session, whose
/// absolute time is a_i = T0 + (t_i − t_0)/speed, is due at
///     due_i = max(a_i + lag_i, response to record i−1),
///     lag_i = due_{i−1} − a_{i−1}, or 0 for the first record and after a pause a_i − a_{i−1} ≥ k_visit_gap,
/// so it never goes before the previous record's response, and after a late response the session's later
/// records keep their recorded spacing from the record it delayed, until the session pauses for k_visit_gap
/// (a new visit, which does not inherit the lag). A record is delayed by its session when due_i > a_i
/// (counted, with due_i − a_i).
///
/// Times are offsets from the run's start. What is held: per open session 48 bytes here (key, lag, the last
/// record's absolute time, state, the head and tail of its held records), 16 per held record and 24 per idle
/// session with a lag; the hash table grows to twice the most sessions open at once. A session is open while
/// it has a record in flight or held, or a lag above 0 and a record within k_visit_gap before the latest
/// record's absolute time; otherwise it is forgotten (which changes nothing: its next record would start a
/// new visit). Memory follows the sessions open at once, so the records within k_visit_gap, not the trace's
/// length. Single-threaded (one per worker); allocation-free once its tables have grown.
class SessionPacer {
 public:
  static constexpr std::uint32_t k_none = 0xffffffffU;
  /// A session's records this far apart or more (absolute times) are two visits; the later has no lag.
  static constexpr Nanos k_visit_gap = std::chrono::seconds(60);

  /// At most `max_held` records are held waiting at once (≥ 1).
  explicit SessionPacer(std::size_t max_held);

  struct Counts {
    std::uint64_t delayed = 0;  ///< records sent later than their absolute time because of their session
    Nanos delay{0};             ///< Σ (due − absolute time) over them
    std::uint64_t sessions_peak = 0;  ///< most sessions open at once
    std::uint64_t held_peak = 0;      ///< most records held at once
    std::uint64_t overflow = 0;       ///< records refused because max_held were held (dropped by the caller)
  };

  /// What arrive() decided for a record whose absolute time `at` has come (now ≥ at).
  struct Arrival {
    enum class Kind : std::uint8_t {
      send,  ///< send it now with intended time `due` (≤ now); the session has it in flight
      hold,  ///< held in `slot`; when `due` is set (≠ max) the caller wakes at due and calls take()
      full   ///< not held: max_held records are held; the caller drops it (the session is not changed)
    };
    Kind kind = Kind::send;
    std::uint32_t session = k_none;
    std::uint32_t slot = k_none;
    Nanos due = Nanos::max();
  };
  /// A record of session `key` (≠ 0) whose absolute time `at` has come; `now` ≥ at.
  Arrival arrive(std::uint64_t key, Nanos at, Nanos now);

  /// The response (or the end in any other way: error, timeout, drop) of `session`'s record in flight came at
  /// `now`. Returns when its next held record is due (Nanos::max() when none is held); the caller then calls
  /// take() at or after that time.
  Nanos done(std::uint32_t session, Nanos now);

  /// The session's next held record, if it is due by `now` and nothing of the session is in flight: its slot,
  /// absolute time and due time (the intended time it is sent with). Else slot == k_none.
  struct Taken {
    std::uint32_t slot = k_none;
    Nanos at{0}, due{0};
  };
  Taken take(std::uint32_t session, Nanos now);

  /// Empties every held record (the run's end) into `out` as (slot, absolute time), sessions forgotten.
  template <class F>
  void drain(F&& out) {
    for (std::uint32_t s = 0; s < m_sessions.size(); ++s) {
      for (std::uint32_t h = m_sessions[s].head; h != k_none; h = m_held[h].next) out(h, m_held[h].at);
    }
    clear();
  }

  std::size_t held() const { return m_held_count; }
  /// Slots are below this (the caller's per-slot storage is at least this large).
  std::size_t slot_capacity() const { return m_held.size(); }
  std::size_t open_sessions() const { return m_open; }
  /// Bytes of the tables (sessions, index, held records, free lists, idle sessions with a lag): what the
  /// pacer holds, for tests of its bound.
  std::size_t footprint_bytes() const;
  const Counts& counts() const { return m_counts; }

 private:
  struct Session {
    std::uint64_t key = 0;  // 0: free
    Nanos lag{0};
    Nanos last_at{0};               // the absolute time of its last record sent
    Nanos head_due = Nanos::max();  // when the head may go (set once nothing is in flight)
    std::uint32_t head = k_none, tail = k_none;
    bool busy = false;  // a record in flight
  };
  struct Held {
    Nanos at{0};
    std::uint32_t next = k_none;
  };

  // An idle session with a lag, forgotten once a record's absolute time reaches `until` (last_at +
  // k_visit_gap) if it is still idle with that last record.
  struct Lagged {
    std::uint64_t key = 0;
    std::uint32_t session = k_none;
    Nanos until{0};
  };

  std::uint32_t find_or_open(std::uint64_t key);
  Nanos lag_at(const Session& s, Nanos at) const;
  void forget_if_idle(std::uint32_t s);
  void note_idle(std::uint32_t s);
  void forget_past_visits(Nanos at);
  void count_sent(Session& s, Nanos at, Nanos due);
  void clear();
  // The open-addressing index key → session (linear probing, backward-shift deletion; 0 = empty).
  std::size_t bucket(std::uint64_t key) const { return key & (m_index.size() - 1); }
  void index_put(std::uint64_t key, std::uint32_t session);
  void index_erase(std::uint64_t key);
  void grow_index();

  std::size_t m_max_held;
  std::vector<Session> m_sessions;
  std::vector<std::uint32_t> m_free_sessions;
  std::vector<std::pair<std::uint64_t, std::uint32_t>> m_index;
  std::vector<Held> m_held;
  std::vector<std::uint32_t> m_free_held;
  std::size_t m_held_count = 0;
  std::size_t m_open = 0;
  // Idle sessions with a lag in the order they went idle, so by `until` (a ring: m_lagged_head is the oldest,
  // m_lagged_count entries; it doubles when full).
  std::vector<Lagged> m_lagged;
  std::size_t m_lagged_head = 0, m_lagged_count = 0;
  Counts m_counts;
};

}  // namespace openloop::workload
