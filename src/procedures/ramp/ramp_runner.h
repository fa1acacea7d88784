// Running a ramp: the planned steps (one staircase run whose connections carry over, or one run per step with
// --fresh), judged as they finish so the run can stop at collapse, then --refine's bisection runs.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "core/error.h"
#include "engine/run_plan.h"
#include "procedures/ramp/ramp_analysis.h"
#include "procedures/ramp/ramp_plan.h"
#include "results/run_results.h"

namespace openloop::procedures {

/// Called on the calling thread (the coordinator's, inside its progress callback, for a staircase run) each
/// time a step has been judged.
using StepFn = std::function<void(const StepRecord& step)>;

/// Everything a ramp produced.
struct RampOutcome {
  std::vector<StepRecord> steps;  ///< in the order they ran; StepWindow::run indexes `runs`
  RampFindings findings;
  std::vector<results::RunResults>
      runs;                        ///< every run the ramp made, complete results (verdict, intervals, ...)
  std::string stopped;             ///< why the planned steps ended before the last one; empty when all ran
  std::vector<std::string> notes;  ///< things the reader should know (a refinement step INVALID, ...)
  bool interrupted = false;        ///< SIGINT/SIGTERM ended the ramp; the steps judged so far are kept
};

/// The spill files the ramp's runs are parked in (results::spill_files), for the output pipeline's check.
inline std::vector<std::shared_ptr<const results::SpillFile>> spill_files(const RampOutcome& o) {
  std::vector<std::shared_ptr<const results::SpillFile>> files;
  for (const auto& run : o.runs) results::add_spill_files(run, files);
  return files;
}

/// Judges the window `w` of `run` as step `number`: analyse_step() and the SLOs.
Result<StepRecord> judge_step(const results::RunResults& run, const StepWindow& w, const RampSettings& s,
                              std::size_t number, bool refinement);

/// Runs the ramp `s` from `base` (target, requests, client policy; its rate profile and run length are
/// replaced). `stop` is shared with a signal watcher: 1 = finish gracefully, 2 = now. The ramp ends a
/// staircase run itself by setting it 0 → 1 when --stop-at fires; such a run is not marked interrupted (a
/// warning says where and why it ended). A signal ends the ramp: no further run starts and `interrupted` is
/// set. Errors: a run that could not start (runtime), a histogram that does not decode.
Result<RampOutcome> run_ramp(const engine::RunPlan& base, const RampSettings& s, std::atomic<int>& stop,
                             const StepFn& on_step = {});

}  // namespace openloop::procedures
