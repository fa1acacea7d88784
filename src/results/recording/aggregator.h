// Merges the workers' interval streams into one series, exactly (histograms added, never averaged).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "core/time.h"
#include "results/recording/interval_stats.h"
#include "results/run_results.h"

namespace openloop::results {

/// Coordinator-side merge. Each worker hands over its intervals in index order (see Recorder); an interval is
/// final once every worker has handed it over, and is then encoded, summarised and added to the totals. All but
/// the latest `resident` finalized intervals are parked whole in a spill file (IntervalSeries), so memory stays
/// flat however long the run (16 bytes of index per interval remain).
/// Single-threaded (the coordinator's thread).
class Aggregator {
 public:
  /// Intervals that stay in memory by default (those the live view and SLO aborts look at).
  static constexpr std::size_t k_resident_intervals = 60;

  Aggregator(unsigned workers, Nanos interval_length, std::size_t resident = k_resident_intervals);

  /// Takes the intervals worker `worker` handed over (in index order; index −1 is its warm-up). With `spent`,
  /// the intervals it no longer needs (merged into another, or finalized) are moved there, not destroyed, so
  /// their memory can serve again.
  void add(unsigned worker, std::vector<IntervalStats>& intervals,
           std::vector<IntervalStats>* spent = nullptr);
  /// Number of measured intervals finalized so far (their results are in results().intervals).
  std::size_t finalized() const { return m_results.intervals.size(); }
  /// The results so far (intervals, totals and histograms of finalized intervals).
  const RunResults& results() const { return m_results; }
  /// Records how many requests are in flight now and how many connections are open, for the live view and
  /// --metrics-listen (RunResults::in_flight_now, connections_open_now).
  void set_in_flight(std::uint64_t n, std::uint64_t connections_open = 0) {
    m_results.in_flight_now = n;
    m_results.connections_open_now = connections_open;
  }
  /// Facts about the run known before it starts (the host's timer floor in info.environment), so a reader of
  /// results() during the run (a ramp judging its steps live) judges with the figures the finished run records.
  void set_info(RunInfo info) { m_results.info = std::move(info); }
  /// Finalizes whatever is left (end of run) and returns the results; `measured_s` is the measured period.
  RunResults finish(double measured_s);

 private:
  struct Pending {
    IntervalStats merged;
    unsigned delivered = 0;
  };
  void finalize(Pending& p);
  void park_old_intervals();

  unsigned m_workers;
  Nanos m_length;
  std::size_t m_resident;
  std::shared_ptr<SpillFile> m_spill;  ///< created when the first interval is parked
  bool m_spill_failed = false;
  std::map<std::int64_t, Pending> m_pending;
  RunResults m_results;
};

}  // namespace openloop::results
