// One ramp step judged on its own: rates, percentiles with confidence intervals, backlog, and the
// steady-state verdict (VALID generator, steady system) that decides whether the step may count as a finding.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/time.h"
#include "results/merging/slice_run.h"
#include "results/run_results.h"
#include "results/judging/verdict.h"
#include "stats/quantile_ci.h"

namespace openloop::procedures {

/// Where a step's measurement lies in the interval series of the run that carried it.
struct StepWindow {
  double offered_rps = 0;       ///< the step's planned rate
  std::size_t run = 0;          ///< index of the run (in the ramp's list of runs) that carried the step
  double from_s = 0, to_s = 0;  ///< the measured part (after the step's own warm-up), run time in seconds
};

/// Bounds of a steady step (docs/ramp.md explains each).
struct SteadyBounds {
  double max_goodput_cv = 0.10;  ///< per-second goodput (normalised by that second's arrivals): sd / mean
  double max_half_difference = 0.10;  ///< the halves' goodput fractions differ by at most this share
  double half_mean_ratio = 1.5;       ///< the halves' mean response times within this factor ...
  Nanos half_mean_floor = std::chrono::milliseconds(1);  ///< ... or within this much of each other
  double backlog_floor = 2.0;          ///< in flight may grow over the window by this many requests ...
  double backlog_fraction = 0.25;      ///< ... or by this share of its mean, before it counts as growing
  results::VerdictBounds generator{};  ///< drops and send lateness: generator problems make the step INVALID
};

/// STEADY: a finding about the system. UNSTEADY: the system had not settled (usually a backlog growing
/// because offered > capacity). INVALID: the generator did not apply the step's load (drops, late sends), so
/// the step says nothing about the system.
enum class StepState { steady, unsteady, invalid };
/// "STEADY", "UNSTEADY", "INVALID".
const char* to_string(StepState s);

/// Everything the ramp knows about one step.
struct StepAnalysis {
  StepWindow window;
  /// The window as a run of its own: exact totals and histograms; counts.ok = ok within the goodput deadline.
  results::RunResults results;
  bool goodput_exact = true;  ///< see results::GoodputDeadline::exact
  double sent_rps = 0;
  /// Throughput: responses per second that arrived while the window lasted (completions_per_second), what the
  /// target delivered then; equal to completed_of_arrivals_rps in a steady state.
  double completed_rps = 0;
  double completed_of_arrivals_rps =
      0;                   ///< the window's own requests that got a response (eventually), per second
  double goodput_rps = 0;  ///< the window's own requests that succeeded within the deadline, per second
  std::array<stats::QuantileEstimate, 4>
      latency{};  ///< response time p50, p90, p99, p99.9 (ns) with 95 % CIs (on the effective n once checked)
  /// The step's response times checked for independence in send order (results::RunChecks::windows); untested
  /// while its run goes on (the checks come after it) and in files written before steps were checked.
  results::IndependenceCheck independence;
  bool p99_censored =
      false;  ///< p99 reached the client's timeout: timeouts are recorded there, the truth is worse
  double mean_in_flight = 0;  ///< Little's law per second (time in system / length), averaged over the window
  double in_flight_growth = 0;  ///< least-squares slope of in flight × window length: requests gained
  double goodput_cv = 0;
  double first_half_goodput = 0, second_half_goodput = 0;  ///< ok / intended of each half
  double first_half_mean_ms = 0, second_half_mean_ms = 0;  ///< mean response time of each half
  double lateness_p99_ms = 0;
  StepState state = StepState::steady;
  std::vector<std::string> reasons;  ///< why INVALID or UNSTEADY, one sentence each with the measured value
};

/// The step's percentile intervals on its window's effective sample size, when `checks` (its run's) checked that
/// window: correlated samples widen them. Nothing changes when the window was not checked.
void widen_intervals(StepAnalysis& a, const results::RunChecks& checks);

/// How goodput is counted and the bounds a step is judged by.
struct StepContext {
  Nanos timeout{0};   ///< the client's timeout (where timeouts are recorded, censored)
  Nanos deadline{0};  ///< goodput deadline; 0 = the client's timeout
  SteadyBounds bounds{};
};

/// Analyses the window `w` of `run`. A window needs at least two whole intervals to be judged steady (fewer:
/// UNSTEADY, "too short"). Errors (usage) when a histogram does not decode.
Result<StepAnalysis> analyse_step(const results::RunResults& run, const StepWindow& w,
                                  const StepContext& ctx);

}  // namespace openloop::procedures
