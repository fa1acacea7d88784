// The host's timer floor as a run records it: how late this machine woke a thread sleeping to an absolute
// deadline with nothing else to do (measured before the run by engine/timer_floor.h), and what --spin-below
// auto did about it. A fact about the host, kept beside host, cores and version in RunInfo::environment.
#pragma once

#include <cstdint>

#include "results/run_results.h"

namespace openloop::results {

/// Microseconds throughout. `samples` 0: not measured (simulated runs, files written before it).
struct TimerFloor {
  std::uint64_t samples = 0;                  ///< timed waits measured
  double gap_us = 0;                          ///< the spacing of their deadlines
  double p50_us = 0, p99_us = 0, max_us = 0;  ///< wake-up lateness: when the thread ran − its deadline
  /// --spin-below auto on a host whose timers wake late: each timed wait ended this much early and the rest was
  /// spun through; 0 = waits slept to their deadline.
  double spin_lead_us = 0;
  double spin_budget = 0;  ///< the share of a core each worker's spinning could use (0: no cap; --spin-budget)
  /// The lowest any worker's budget fell to while it waited for a CPU (engine/spin_budget.h): = spin_budget when
  /// it never did; 0 with spin_budget 0.
  double spin_budget_low = 0;
  /// The share of a core the workers spent spinning, on average (spinning through every short wait included).
  double spin_spent = 0;
  /// True when the floor was given by OPENLOOP_TIMER_FLOOR_US rather than measured.
  bool given = false;
  /// The same lateness measured during the run: the workers' own timed waits that ended with nothing to read
  /// (woke − deadline, every worker's merged). `run_samples` 0: not measured (coalesced or spinning through every
  /// wait, simulated runs, older files, and a window of a run, which has no figure of its own).
  std::uint64_t run_samples = 0;
  double run_p50_us = 0, run_p99_us = 0, run_max_us = 0;
};

/// Stores `f` as `environment.timer_floor` {samples, gap_us, p50_us, p99_us, max_us, source ("measured" or
/// "OPENLOOP_TIMER_FLOOR_US"), spin_lead_us, spin_budget, spin_budget_low, spin_spent, and when run_samples > 0
/// during_run {samples, p50_us, p99_us, max_us}} (nothing when f.samples is 0); the rest of the environment is
/// kept.
void set_timer_floor(RunInfo& info, const TimerFloor& f);
/// Reads it back: samples 0 when absent or not an object of numbers.
TimerFloor timer_floor_of(const RunInfo& info);
/// Removes `during_run`, `spin_budget_low` and `spin_spent` from `info`'s timer floor: a window of a run (a ramp's
/// step) keeps the floor measured before the run and the budget chosen, but has no figure of the run's own, as it
/// has no CPU figure (results/merging/slice_run.h).
void drop_run_timer_floor(RunInfo& info);

}  // namespace openloop::results
