// The worker's in-flight exchanges: first attempts ordered by deadline, retry attempts timed on the timer
// queue.
#pragma once

#include <cstdint>

#include "core/time.h"
#include "engine/exchange.h"

namespace openloop::engine {

/// Two intrusive lists over Exchange::prev/next. First attempts are kept in deadline order, so expiry reads
/// the head; a retry's deadline may fall anywhere among them (its intended time is older, its start newer),
/// so retries go on an unordered list and their deadlines on the timer queue. O(1) unlink; no allocation.
class InFlightLists {
 public:
  /// Links a first attempt by its deadline (x.deadline).
  void link_by_deadline(Exchange& x);
  /// Links a retry attempt (unordered) and bumps x.generation: the caller schedules the deadline timer with
  /// the new generation, so a stale timer is ignored.
  void link_timed(Exchange& x);
  /// Unlinks x from whichever list holds it (none: nothing).
  void unlink(Exchange& x);

  /// The first attempt with the earliest deadline, null when none.
  Exchange* earliest() const { return m_head; }
  /// Any retry attempt in flight, null when none.
  Exchange* any_timed() const { return m_timed; }
  bool empty() const { return m_head == nullptr && m_timed == nullptr; }
  /// Exchanges on either list.
  std::uint64_t size() const { return m_linked; }

 private:
  Exchange* m_head = nullptr;
  Exchange* m_tail = nullptr;
  Exchange* m_timed = nullptr;
  std::uint64_t m_linked = 0;
};

}  // namespace openloop::engine
