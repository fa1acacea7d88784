// The verdict: did the rig apply the load it was asked to? INVALID names every reason with its measured
// value.
#pragma once

#include "results/run_results.h"

namespace openloop::results {

/// Bounds of a valid run (DESIGN.md invariant 7).
struct VerdictBounds {
  double max_dropped_fraction = 0.01;  ///< dropped / intended
  double min_sent_fraction = 0.99;     ///< sent / intended
  double lateness_floor_ms = 1.0;      ///< send-lateness p99 bound: max(floor, gap_fraction × mean gap)
  double lateness_gap_fraction = 0.10;
  double max_cpu_fraction = 0.90;  ///< generator CPU / (threads × wall)
  double max_slot_wait_fraction = 0.01;  ///< slot_waits / intended: arrivals queued for a connection or stream
  /// Judge the self-check of the achieved arrival process (RunResults::checks), unless it was accepted. A probe
  /// judges its phases apart and leaves the whole run's arrival process out, as it does its lateness.
  bool judge_arrivals = true;
};

/// The send-lateness p99 a valid open-model run may have: max(floor, gap_fraction × mean gap between
/// arrivals), in milliseconds; the floor when nothing was intended or measured.
double lateness_bound_ms(const RunResults& r, const VerdictBounds& bounds = {});

/// Judges the run. Open model: drops, sent fraction, send lateness, the generator's own errors, generator CPU.
/// Closed model: the generator's own errors and CPU only (a closed loop has no schedule to keep; its label says
/// what it hides). The generator's own errors (ErrorKind::generator) invalidate a run whatever their number.
/// Every model: the counts add up (Counters::imbalance() empty) in the totals and in every interval.
Verdict judge(const RunResults& r, const VerdictBounds& bounds = {});

}  // namespace openloop::results
