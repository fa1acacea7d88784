// A trace as an absolute arrival schedule: each record's intended offset is (t_i − t_0) / speed from the
// run's start, never a sleep after the previous record, so nothing a slow loop does can shift the rest.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/error.h"
#include "core/time.h"
#include "workload/session_key.h"
#include "workload/trace_privacy.h"
#include "workload/trace_reader.h"

namespace openloop::workload {

/// How a trace is replayed.
struct ReplayOptions {
  double speed = 1;  ///< 2 = twice as fast: offsets are trace time / speed (> 0)
  /// A gap between consecutive records (trace time) longer than this is shortened to it; 0 = gaps kept.
  Nanos max_gap{0};
  /// The window of the trace replayed, in trace time after its first record (file order); unset = all.
  std::optional<Nanos> from, to;
  /// Records are read ahead and released in stamp order while the newest read is at most `window` (trace
  /// time) after the oldest held, and at most window_records are held: memory is bounded whatever the file.
  Nanos window = std::chrono::seconds(5);
  std::size_t window_records = 65536;
  /// --loop: the trace again every loop_period of replay time (0: once).
  Nanos loop_period{0};
  /// Records due at or after this offset are not issued: the schedule ends there (the run's length).
  Nanos end = Nanos::max();
  /// --session-key: which value names a record's session (none: every record independent). A session's
  /// records all go to one lane (by the value's hash), so one worker keeps them in order.
  SessionKey session_key;
};

/// Which of the trace's records one schedule takes: its host shard's (by weight) and, of those, its worker's.
/// The i-th record scheduled without a session goes to the shard owning position i mod W of the weighted
/// stripe (workload/shard.h stripe_owners, W = Σ weights), and that shard's j-th such record to worker
/// j mod workers; a record with a session goes by its key's hash h instead: the shard owning h mod W, the
/// worker (h / W) mod workers. Every shard reads the whole file, so the shards' parts partition the trace.
struct ReplayLane {
  std::vector<unsigned> owners{0};  ///< the stripe: owners[p] = the shard of position p (size W)
  unsigned shard = 0;
  unsigned worker = 0, workers = 1;
};

/// What happened to the trace's records (every lane counts the whole trace alike).
struct ReplayCounts {
  std::uint64_t records = 0;  ///< records scheduled (all lanes), over every pass
  /// Records that came after a later-stamped record had already been released (out of order by more than the
  /// window): sent at that record's time, in file order, instead.
  std::uint64_t late = 0;
  std::uint64_t gaps_compressed = 0;  ///< gaps shortened to max_gap
  Nanos compressed{0};                ///< trace time removed by those gaps
  std::uint64_t outside = 0;          ///< records outside --from/--to (not scheduled)
  std::uint64_t passes = 0;           ///< passes over the file begun (--loop: more than one)
  std::uint64_t keyed = 0;            ///< records with a session (--session-key), first pass, all lanes
};

/// The arrivals of one lane (worker `lane` of `lanes` takes the trace's records i with i % lanes == lane, in
/// stamp order), each with its record (privacy rules applied). Invariant: a record's offset is a function of
/// the file and the options only, never of when next() is called. Not thread-safe (one per worker); reads
/// the file as it goes, holding at most the window.
class ReplaySchedule {
 public:
  /// Preconditions (asserted): lanes ≥ 1, lane < lanes, options.speed > 0. One shard of `lanes` workers.
  ReplaySchedule(TraceReader reader, ReplayOptions options, TracePrivacy privacy, unsigned lane = 0,
                 unsigned lanes = 1);
  /// Preconditions (asserted): lane.workers ≥ 1, lane.worker < lane.workers, lane.owners not empty.
  ReplaySchedule(TraceReader reader, ReplayOptions options, TracePrivacy privacy, ReplayLane lane);

  /// The intended offset of this lane's next record (its request in record()), or nullopt once the trace (or
  /// options.end) is over. Error: a bad line (workload/trace_reader.h), a failed read.
  Result<std::optional<Nanos>> next();
  /// The record of the offset next() returned last (privacy rules applied).
  const TraceRecord& record() const { return m_current; }
  /// Its session's hash (workload/session_key.h; read before the privacy rules): 0 = independent.
  std::uint64_t session() const { return m_session; }
  const ReplayCounts& counts() const { return m_counts; }
  const TraceReader& reader() const { return m_reader; }
  const TracePrivacy& privacy() const { return m_privacy; }
  /// The offset of the last record scheduled (any lane) in the first pass, before options.end.
  Nanos last_offset() const { return m_last_offset; }

 private:
  struct Held {
    Nanos t;
    std::uint64_t seq;
    TraceRecord record;
  };
  /// The next record of the pass in stamp order into `out`; false at the pass's end.
  Result<bool> release(TraceRecord& out);
  Result<void> fill();
  void start_pass();
  /// True when the record just released (global index `index`, session m_session) is this lane's.
  bool mine(std::uint64_t index);

  TraceReader m_reader;
  ReplayOptions m_options;
  TracePrivacy m_privacy;
  ReplayLane m_lane;
  std::uint64_t m_session = 0;
  std::uint64_t m_shard_records = 0;  // records without a session this lane's shard took so far
  std::vector<Held> m_held;  // a min-heap by (t, seq)
  TraceRecord m_read, m_current;
  ReplayCounts m_counts;
  // The pass.
  bool m_eof = false;
  bool m_any_read = false;
  Nanos m_first{0};  // the pass's first record's stamp (file order): --from/--to count from it
  Nanos m_newest{0};
  std::uint64_t m_seq = 0;
  bool m_any_released = false;
  Nanos m_prev{0};   // stamp of the previous record released (after clamping)
  Nanos m_shift{0};  // trace time removed by compressed gaps so far
  Nanos m_origin{0};  // the first released record's stamp: offset 0
  std::uint64_t m_index = 0;  // records scheduled, all lanes, all passes
  std::uint64_t m_pass_records = 0;
  Nanos m_last_offset{0};
  bool m_ended = false;
};

}  // namespace openloop::workload
