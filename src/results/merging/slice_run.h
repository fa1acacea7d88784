// A window of a run's interval series as a run of its own: how a ramp step gets its exact totals and
// histograms.
#pragma once

#include "core/error.h"
#include "core/time.h"
#include "results/run_results.h"

namespace openloop::results {

/// Counting goodput against a deadline shorter than the client's timeout: the client waits for late responses
/// (so throughput sees them) but only those within the deadline count as goodput (seed 000's "441 vs 88").
struct GoodputDeadline {
  Nanos deadline{0};  ///< 0, or ≥ `timeout`: goodput is the run's own `ok` count
  Nanos timeout{0};   ///< the client's timeout in the run (results so far carry no RunInfo yet)
  /// Set by slice_run when the deadline count is a bound, not exact: some completed responses had a status
  /// outside --success, and the histograms cannot tell whether those were the fast ones (see slice_run).
  bool exact = true;
};

/// The intervals of `run` lying wholly inside [from_s, to_s) (seconds since the run's start of measurement,
/// as IntervalResult::start_s) as a RunResults: counters added, histograms decoded and merged exactly,
/// intervals re-based to start at 0, measured_s their total length, info copied (duration_s = the window,
/// offered_rps = intended / measured_s, start_unix_s moved to the window), generator stats and the during-run timer floor cleared (a
/// window has no CPU or wake-up figure of its own). With a deadline shorter than `goodput.timeout`, each interval's `ok`
/// becomes the ok responses within the deadline: the response-time samples at or below it, less the completed
/// responses that were not ok and the unfinished ones (a lower bound; exact when every completed response was
/// ok and none was unfinished), and `goodput.exact` is cleared when any interval's bound was not exact.
/// Errors (usage) when an interval's histogram does not decode, naming the interval.
Result<RunResults> slice_run(const RunResults& run, double from_s, double to_s,
                                      GoodputDeadline& goodput);

/// Throughput in wall-clock time: responses (any status) per second that arrived during [from_s, to_s),
/// whichever interval their request was intended in. Intervals hold requests by intended time, so a window's
/// own requests can complete after it ends (and earlier requests within it); under overload the two counts
/// differ, and this one is what the target delivered while the window lasted. Each interval's response times
/// are shifted by its start, with intended times spread evenly over the interval; samples at `timeout` or
/// above are timeouts (censored there), not responses. Unfinished requests of a run stopped at once would
/// count as responses (rare). Errors (usage) when a histogram does not decode.
Result<double> completions_per_second(const RunResults& run, double from_s, double to_s,
                                      Nanos timeout);

}  // namespace openloop::results
