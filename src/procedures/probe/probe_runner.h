// Runs one metastable probe: the staircase as one open-model run, lab triggers at the phase boundaries from a
// control thread, the lab's own stats polled each second, and the verdict from the run's intervals.
#pragma once

#include <atomic>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "engine/run_plan.h"
#include "lab/control_client.h"
#include "procedures/probe/probe_plan.h"
#include "procedures/probe/probe_verdict.h"
#include "procedures/probe/probe_window.h"
#include "results/run_results.h"
#include "results/judging/slo.h"

namespace openloop::procedures {

/// What a probe run needs besides its plans.
struct ProbeContext {
  /// The lab's control endpoint (required by stall and dependency triggers).
  std::optional<lab::ControlClient> lab;
  bool poll_lab = false;           ///< poll GET /_lab/stats every second for the server's view
  std::vector<results::Slo> slos;  ///< judged on the baseline phase
  std::FILE* log = nullptr;        ///< phase changes and a status line every few seconds; nullptr: silent
  /// Called with each progress report of the run (the finalized intervals so far), after the probe's own
  /// checks, on the coordinator's thread (--metrics-listen); empty: none.
  std::function<void(const results::RunResults& so_far)> on_progress;
};

/// One probe run: its results, the lab's samples and requests, and the verdict.
struct ProbeRun {
  results::RunResults results;
  std::vector<LabSample> lab;
  std::vector<std::string> lab_actions;
  std::vector<results::SloResult> baseline_slos;
  ProbeOutcome outcome;
};

/// Runs `run_plan` (whose profile is `plan`'s staircase) once. `user_stop` is the signal watcher's flag (1:
/// stop gracefully, 2: at once), forwarded to the engine; a lab trigger in force is undone when the run ends
/// or stops. With descending steps, the run stops once the first healthy window at the base load is known and
/// the steps have begun. Errors: runtime (the engine; the lab refusing or not answering a trigger's request).
Result<ProbeRun> run_probe(const engine::RunPlan& run_plan, const ProbePlan& plan, const ProbeContext& ctx,
                           std::atomic<int>& user_stop);

/// Judges a finished probe run into run.outcome (and its baseline SLOs): the verdict from its intervals and
/// the facts (its lab samples, whether it `stopped_early` after recovering at the base load). `invalid`:
/// reasons the run cannot be judged beyond its own (the lab's settings not restored). The part of run_probe()
/// after the run, shared with a probe on virtual time (sim::simulate_probe).
Result<void> judge_probe_run(ProbeRun& run, const ProbePlan& plan, const ProbeContext& ctx,
                             bool stopped_early, const std::vector<std::string>& invalid = {});

/// One sample of the lab's own view from the JSON of GET /_lab/stats at `t_s` since the start of measurement;
/// nullopt when it is not such a document.
std::optional<LabSample> lab_sample_of(const nlohmann::json& stats, double t_s);

/// The engine's progress callback of a probe run: decodes new intervals, logs a status line every five to
/// `log` (nullptr: silent), and looks for the first healthy window at the base load (window by window as
/// intervals arrive, so each check is one window's work).
class ProbeProgress {
 public:
  ProbeProgress(const ProbePlan& plan, std::FILE* log);
  /// True once a healthy window in the observe phase is known.
  bool update(const results::RunResults& so_far);

 private:
  void log_status();
  void check_window();

  const ProbePlan& m_plan;
  std::FILE* m_log;
  std::vector<Sample> m_samples;
  std::size_t m_logged = 0;
  std::optional<BaselineJudgement> m_baseline;
  std::size_t m_next_window = 0;
  bool m_recovered = false;
};

/// The run's results restricted to [start, end) of the measured period, for judging SLOs on one phase: the
/// same window a ramp step is (slice_run, results/merging/slice_run.h), counting the run's own ok responses.
Result<results::RunResults> phase_results(const results::RunResults& r, Nanos start, Nanos end);

}  // namespace openloop::procedures
