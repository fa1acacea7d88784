// What a ramp runs: its settings, the planned rates, and the run plans that carry the steps (one staircase
// run, or one run per step with --fresh and for --refine).
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <vector>

#include "core/error.h"
#include "core/time.h"
#include "engine/run_plan.h"
#include "procedures/ramp/ramp_analysis.h"
#include "procedures/ramp/ramp_step.h"
#include "results/merging/repeats.h"
#include "results/run_results.h"
#include "results/judging/slo.h"
#include "results/judging/until.h"
#include "workload/rate_profile.h"

namespace openloop::procedures {

/// Every choice of `openloop ramp`, parsed and validated (cli/ramp.cpp).
/// How a ramp runs one plan: engine::run's signature (the plan, the stop flag, a progress callback per
/// finalized interval). Empty: engine::run, on the network; `ramp --simulate` gives the simulator.
using RunFn = std::function<Result<results::RunResults>(
    const engine::RunPlan& plan, std::atomic<int>& stop,
    const std::function<void(const results::RunResults& so_far)>& progress)>;

struct RampSettings {
  double from_rps = 0;   ///< the first step's rate (> 0)
  double to_rps = 0;     ///< no planned step above it; 0 = no bound but max_steps
  double step_mult = 0;  ///< next = previous × step_mult (> 1) ...
  double step_add = 0;   ///< ... or previous + step_add (> 0); exactly one of the two is non-zero
  Nanos warmup{0};       ///< each step's leading part, sent but not judged
  Nanos hold{0};  ///< each step's measured part (≥ 2 s: the steadiness checks need two 1-s intervals)
  std::size_t max_steps = 30;  ///< planned steps at most (refinement steps come on top)
  bool refine = false;
  double tolerance = 0.02;  ///< --refine bisects until capacity is known to ± this share
  std::size_t max_refinements = 8;
  StopAt stop_at = StopAt::collapse;
  bool fresh = false;  ///< one run per step (new connections) instead of one staircase run
  Nanos cooldown = std::chrono::seconds(5);  ///< silence before each separate run after the first
  StepContext step;                          ///< goodput deadline and steadiness bounds
  std::vector<results::Slo> slos;            ///< capacity = the highest steady step meeting all of them
  bool default_slo = false;  ///< `slos` holds the default (goodput>=99%) because none was given
  /// --step-until (--fresh only): each step holds at least `hold`, then goes on until every target's 95 %
  /// interval on the step's measured window is within its half-width, or `step_max_hold` (StepUntilWatcher).
  std::vector<results::UntilTarget> step_until;
  Nanos step_max_hold{0};    ///< with step_until: the longest a step's measured part may last (≥ hold)
  RunFn runner;              ///< how each run is made (empty: engine::run)
  /// --repeat N (--fresh only): each step's rate is run N times (≥ 2), repeat k with the seed
  /// results::repeat_seed(base seed, k), `cooldown` of silence before each; 0 = once.
  std::size_t repeat = 0;
  /// With `repeat`: called before each run after the ramp's first, to put the target back in the state the
  /// first run met (the lab's model restarted, cli/run_repeats.h); says what it did in the context. Empty:
  /// nothing to reset (not a lab, or simulated: every simulated run starts from a fresh model).
  std::function<void(const std::atomic<int>& stop, results::RepeatContext& context)> reset_between;
};

/// The planned rates: from_rps, then × step_mult or + step_add, while ≤ to_rps (when set), at most max_steps.
/// A step_mult so close to 1 that the rate would not change is the caller's to refuse.
std::vector<double> planned_rates(const RampSettings& s);

/// One run's staircase: for each rate a zero-length step to it, then warm-up + hold at it. Preconditions:
/// rates non-empty, finite, ≥ 0.
workload::RateProfile staircase(const std::vector<double>& rates, Nanos warmup, Nanos hold);

/// The measured window of step `k` (0-based) of a staircase run, in that run's interval time.
StepWindow staircase_window(std::size_t k, double rate, Nanos warmup, Nanos hold);

/// `base` turned into the single staircase run of `rates` (warm-up 0, so the run's intervals cover every
/// step).
engine::RunPlan staircase_plan(const engine::RunPlan& base, const std::vector<double>& rates,
                               const RampSettings& s);

/// The longest a step's measured part may last: `step_max_hold` with --step-until, else `hold`.
Nanos longest_hold(const RampSettings& s);

/// `base` turned into a run of one step at `rate`: `silence` of no arrivals (a previous step's backlog may
/// drain), the step's warm-up, then its hold (the longest_hold(): with --step-until the run is stopped
/// earlier once its targets hold). The run's warm-up is 0, so its intervals cover the step's warm-up too: the
/// responses to warm-up requests that arrive during the hold count in its throughput.
engine::RunPlan single_step_plan(const engine::RunPlan& base, double rate, Nanos silence,
                                 const RampSettings& s);
/// The planned measured window of that run: [silence + warm-up, silence + warm-up + longest_hold()).
StepWindow single_step_window(double rate, Nanos silence, const RampSettings& s);

}  // namespace openloop::procedures
