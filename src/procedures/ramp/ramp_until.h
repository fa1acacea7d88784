// --step-until: the stop rule of one --fresh ramp step's run. The step holds at least --hold, then goes on
// until every named percentile's 95 % interval on the step's measured window is within its half-width, or its
// run ends at --step-max-hold.
#pragma once

#include <atomic>
#include <cstddef>
#include <string>
#include <vector>

#include "hdr/histogram.h"
#include "results/run_results.h"
#include "results/judging/until.h"

namespace openloop::procedures {

/// Watches one step's run as its intervals finalize (the run's progress callback: single-threaded, the
/// coordinator's thread; no work on worker loops) and asks it to stop once the step's window holds every
/// target.
class StepUntilWatcher {
 public:
  /// `from_s`: the step's measured start in its run's interval time (seconds); `min_to_s` (≥ from_s): the
  /// earliest end of its window (from_s + --hold). `targets` non-empty.
  StepUntilWatcher(std::vector<results::UntilTarget> targets, double from_s, double min_to_s);

  /// Adds the finalized intervals of `so_far` not seen yet that start at or after from_s to the window's
  /// response-time histogram; once the window reaches min_to_s, judges every target on it (on the naive
  /// sample size: the independence check comes after the run) and when all are met asks the run to stop
  /// gracefully
  /// (`stop` 0 → 1; left alone when a signal asked first). Returns true when this call stopped the run. A
  /// histogram that does not decode ends the watching (error()).
  bool update(const results::RunResults& so_far, std::atomic<int>& stop);

  /// Whether this watcher stopped the run.
  bool stopped() const { return m_stopped; }
  /// The end of the window the targets were met on (run time, s: a whole interval's end); valid when
  /// stopped().
  double met_at_s() const { return m_met_at_s; }
  /// Why watching ended early (a histogram that did not decode); empty when it did not.
  const std::string& error() const { return m_error; }

 private:
  std::vector<results::UntilTarget> m_targets;
  double m_from_s, m_min_to_s;
  hdr::Histogram m_response_time;
  double m_measured_s = 0;  // the window's intervals' total length so far
  double m_end_s = 0;       // the end of the latest of them
  std::size_t m_next = 0;   // the first interval of the run not looked at yet
  bool m_stopped = false;
  double m_met_at_s = 0;
  std::string m_error;
};

}  // namespace openloop::procedures
