// Per-worker recorder: keeps the intervals that still have requests in flight and hands finished ones over.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "core/time.h"
#include "results/recording/interval_stats.h"

namespace openloop::results {

/// Groups outcomes by the interval of their *intended* time, so every interval balances (invariant 2) even
/// though a request intended at t may finish at t + timeout. An interval is finished once the worker has
/// issued every arrival before its end and none of its requests is pending; finished intervals are handed
/// over in index order, every index included (empty ones too), so a coordinator can merge workers index by
/// index. Offsets are measured from the start of measurement (after warm-up); negative offsets go to the
/// warm-up interval. Single-threaded (one per worker). Allocation happens only when a new interval opens
/// (once per interval) and no spare is at hand.
class Recorder {
 public:
  /// `request_kinds` > 1 keeps a per-request breakdown in every interval.
  explicit Recorder(Nanos interval_length = std::chrono::seconds(1), std::size_t request_kinds = 1);

  /// The interval for a request intended at `offset` (from the start of measurement); creates it if needed.
  /// The reference stays valid until that interval is taken by take_finished().
  IntervalStats& interval_for(Nanos offset);
  /// The interval with this index (−1: warm-up). It must be open.
  IntervalStats& interval(std::int64_t index);
  /// Index of the interval holding `offset` (−1 for negative offsets: warm-up).
  std::int64_t index_of(Nanos offset) const;

  /// Marks one more request of `index` as pending / no longer pending.
  void add_pending(std::int64_t index) { ++slot(index).pending; }
  void remove_pending(std::int64_t index) { --slot(index).pending; }

  /// Moves every finished interval (all arrivals before its end issued: `issued_before` ≥ its end; nothing
  /// pending) to `out`, in index order. `issued_before` = Nanos::max() means no arrival will ever be issued
  /// again. The warm-up interval is handed over once every warm-up request is resolved.
  void take_finished(Nanos issued_before, std::vector<IntervalStats>& out);
  /// Moves every interval out, finished or not (end of run; callers have resolved all pending requests).
  void take_all(std::vector<IntervalStats>& out);

  Nanos interval_length() const { return m_length; }

  /// Cleared intervals (IntervalStats::clear) for the next ones to open instead of allocating: a fresh
  /// interval's histograms are megabytes of memory to zero, page by page, in the middle of the run. Takes
  /// from `spares` until `keep` are at hand; a spare whose layout differs (another plan's breakdown) is
  /// dropped; the rest stay in `spares`.
  void add_spares(std::vector<IntervalStats>& spares, std::size_t keep);
  /// Makes `n` spares now (before a run), so that no interval allocates before spent ones come back.
  void make_spares(std::size_t n);

 private:
  struct Slot {
    IntervalStats stats;
    std::uint64_t pending = 0;
  };
  Slot& slot(std::int64_t index);

  Nanos m_length;
  std::size_t m_request_kinds;
  Slot m_warmup;
  bool m_warmup_taken = false;
  std::int64_t m_base = 0;  // index of m_open.front()
  std::deque<Slot> m_open;
  std::vector<IntervalStats> m_spares;
  std::int32_t m_counts_length = 0;  // every histogram's, for checking spares
};

}  // namespace openloop::results
