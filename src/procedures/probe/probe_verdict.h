// The metastable probe's verdict from a run's intervals: RECOVERED after T s, METASTABLE with the sustaining
// signal, RECOVERED-AT-LOWER-LOAD (hysteresis) or INCONCLUSIVE; pure functions of the samples, so tests
// construct series.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "procedures/probe/probe_plan.h"
#include "procedures/probe/probe_window.h"
#include "results/judging/run_checks.h"
#include "stats/quantile_ci.h"

namespace openloop::procedures {

enum class ProbeVerdict : std::uint8_t { recovered, recovered_at_lower_load, metastable, inconclusive };
/// "RECOVERED", "RECOVERED-AT-LOWER-LOAD", "METASTABLE", "INCONCLUSIVE".
const char* to_string(ProbeVerdict v);

/// The lab's own view at one moment (GET /_lab/stats), when the target is a lab the probe can reach.
struct LabSample {
  double t_s = 0;  ///< since the start of measurement (negative during the warm-up)
  bool frozen = false;
  std::uint64_t queue_depth = 0, held = 0, busy_workers = 0, dependency_waiting = 0;
  std::uint64_t completed = 0, ok = 0, shed = 0, rejected = 0, expired = 0;  ///< totals since the lab started
};

/// What else is known about the run besides its intervals.
struct RunFacts {
  /// Did the generator apply the plan, as far as the whole run tells: its CPU (results::judge with only that
  /// bound). classify() judges drops and the sent share per phase, and send lateness per compared phase.
  bool valid = true;
  std::vector<std::string> reasons;  ///< why not
  /// Every attempt failed to connect (results::RunResults::unreachable): the target's failure, the one reason.
  bool unreachable = false;
  bool interrupted = false;  ///< stopped by the user (not by the probe itself)
  double timeout_s = 0;              ///< the client's deadline (0: unknown)
  /// The probe skipped the descending steps once recovered at the base load.
  bool stopped_after_recovery = false;
  /// --slo objectives the baseline missed ("p99<=5ms (measured 7.2ms)").
  std::vector<std::string> baseline_slo_failures;
  std::vector<LabSample> lab;  ///< empty when the lab was not polled
};

/// A named condition seen while not recovered, e.g. {"growing backlog", "in flight 12 → 340 ..."}.
struct Signal {
  std::string name;
  std::string text;
};

/// One phase as measured.
struct PhaseRow {
  Phase phase;
  Stats stats;
  std::optional<std::uint64_t> lab_queue_max;  ///< deepest lab queue seen in the phase (lab polled)
  bool skipped = false;  ///< not run, or cut short: the probe stopped after recovering at the base load
  /// Response time p50, p90, p99, p99.9 (ns) with 95 % intervals on the phase's effective sample size (on n
  /// when its samples were not checked: add_phase_intervals).
  std::array<stats::QuantileEstimate, 4> latency{};
  /// The phase's response times checked for independence in send order (the run's check of the window the
  /// phase is); untested when the run did not check it (files written before phases were checked).
  results::IndependenceCheck independence;
};

/// Each row's percentiles and intervals, from `samples` (the run's intervals) and the run's check of the
/// phase's window in `checks` (correlated samples widen them; unchecked: intervals on n).
void add_phase_intervals(std::vector<PhaseRow>& rows, const std::vector<Sample>& samples,
                         const results::RunChecks& checks);
/// One phase's intervals as a JSON object: {"p50": {"value", "ci95": [low, high]}, ..., "count",
/// "effective_count", "independence", "correlation" (when correlated)}; milliseconds, null for a side too few
/// samples bound.
nlohmann::json phase_intervals_json(const PhaseRow& row);

/// Everything the probe concluded from one run.
struct ProbeOutcome {
  ProbeVerdict verdict = ProbeVerdict::inconclusive;
  std::string sentence;                  ///< the verdict as one sentence with the numbers behind it
  std::optional<double> recovery_s;      ///< from the trigger's end to the start of the first healthy window
  std::optional<double> recovered_rate;  ///< requests/s of the phase where it recovered
  std::optional<WindowJudgement> healthy_window;    ///< the first window that met every criterion
  std::optional<WindowJudgement> last_base_window;  ///< the last window of the observe phase
  std::vector<Signal> signals;     ///< sustaining signals (not recovered at the base load), strongest first
  std::vector<std::string> notes;  ///< caveats: e.g. the trigger did not degrade anything
  BaselineJudgement baseline;
  std::vector<PhaseRow> phases;
  nlohmann::json to_json() const;
};

/// The first window of `window` length inside `phase` that meets every criterion against the baseline, if
/// any.
std::optional<WindowJudgement> first_recovered(const std::vector<Sample>& samples, const Phase& phase,
                                               Nanos window, const Stats& baseline, double base_rate,
                                               const RecoveryCriteria& c);

/// Classifies one run. INCONCLUSIVE, naming every reason, when the run was interrupted before the observe
/// phase ended; the generator dropped over 1 % or sent under 99 % of the intended requests in any phase that
/// ran (named), or `facts` says it did not apply the plan; the baseline was not steady or missed an SLO; or
/// the generator's send lateness in a compared phase could have decided the verdict (probe_lateness.h).
/// Otherwise RECOVERED (first healthy window in observe), RECOVERED-AT-LOWER-LOAD (first healthy window in a
/// descending step) or METASTABLE (none), with signals.
ProbeOutcome classify(const ProbePlan& plan, const std::vector<Sample>& samples, const RunFacts& facts);

}  // namespace openloop::procedures
