// The service model's counters, in total and per second of model time (the last k_history_seconds kept).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/time.h"

namespace openloop::lab {

/// What happened to arrivals. Every arrival ends as exactly one of ok, errors, shed, rejected, expired,
/// cancelled, or is still held/queued/in service.
struct ModelCounters {
  std::uint64_t arrivals = 0;      ///< requests submitted to the model
  std::uint64_t ok = 0;            ///< served by a worker, 200
  std::uint64_t errors = 0;        ///< served by a worker, injected 500 (work was done)
  std::uint64_t shed = 0;          ///< refused at once because the queue reached --shed-at (429)
  std::uint64_t rejected = 0;      ///< refused because the queue was at --queue-limit (503)
  std::uint64_t expired = 0;       ///< deadline passed while queued: dropped at dequeue, no work (504)
  std::uint64_t cancelled = 0;     ///< client gone while queued, dropped at dequeue (--cancel)
  std::uint64_t cache_hits = 0;    ///< requests served from the cache (subset of ok + errors)
  std::uint64_t cache_misses = 0;  ///< requests that missed the cache (subset of ok + errors)
  /// Requests completed by a worker: ok + errors.
  std::uint64_t completed() const { return ok + errors; }
};

/// One second of model time: counters of events in it and the deepest the queue was.
struct SecondStats {
  std::int64_t second = 0;  ///< whole seconds since the model started
  ModelCounters counts;
  std::size_t max_queue_depth = 0;
};

/// Accumulates counters and rolls them into per-second history as model time passes. Single-threaded.
class ModelStats {
 public:
  static constexpr std::size_t k_history_seconds = 60;

  /// Moves the current second forward to the one containing `since_start` (never backwards: an event
  /// slightly older than the current second is counted in it). `queue_depth` is the depth now, which the
  /// seconds rolled over (with no events of their own) had all along.
  void roll(Nanos since_start, std::size_t queue_depth);
  /// The counters of the current second, to increment together with totals via count().
  template <class Field>
  void count(Field field) {
    ++(m_totals.*field);
    ++(m_current.counts.*field);
  }
  void note_queue_depth(std::size_t depth);

  const ModelCounters& totals() const { return m_totals; }
  /// Completed seconds, oldest first (at most k_history_seconds), then the current partial second.
  std::vector<SecondStats> history() const;

 private:
  ModelCounters m_totals;
  SecondStats m_current;
  std::array<SecondStats, k_history_seconds> m_ring{};
  std::size_t m_ring_next = 0;
  std::size_t m_ring_size = 0;
};

}  // namespace openloop::lab
