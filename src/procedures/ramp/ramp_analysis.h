// Findings across a ramp's steps: capacity (bracketed, refined by bisection), the knee of both curves
// (Kneedle), collapse, and when a running ramp should stop.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "procedures/ramp/ramp_step.h"
#include "results/merging/repeats.h"
#include "results/judging/slo.h"
#include "results/judging/until.h"

namespace openloop::procedures {

/// A judged step: its analysis, its SLOs, and where it came from.
struct StepRecord {
  std::size_t number = 0;   ///< 1-based, in the order the steps ran
  bool refinement = false;  ///< added by --refine's bisection after the planned steps
  StepAnalysis analysis;
  std::vector<results::SloResult> slos;  ///< every SLO evaluated on the step's own results
  bool slos_met = false;
  /// --step-until: each target judged on the step's measured window (its intervals on the window's effective
  /// sample size once its run was checked), met or not with the "would need about N more seconds" estimate;
  /// empty without --step-until.
  std::vector<results::UntilOutcome> until;
  /// --repeat N (with --fresh): every repeat of the step judged on its own, in the order they ran; the fields
  /// above are those of the repeat the step is judged on (`judged_on`, procedures/ramp_repeats.h). Empty
  /// without --repeat.
  std::vector<StepRecord> repeats;
  results::RepeatSet repeat_set;  ///< the repeats' windows as runs, their seeds and lab resets
  std::vector<results::PercentileSpread> spreads;  ///< each percentile across the repeats
  std::size_t judged_on = 0;                       ///< index into `repeats`
  std::string disagreement;  ///< empty when every repeat has the same verdict, else what each said
  /// STEADY and every SLO met: the step counts towards capacity.
  bool passes() const { return analysis.state == StepState::steady && slos_met; }
  /// A finding against the target: a valid step (generator fine) that did not pass.
  bool fails() const { return analysis.state != StepState::invalid && !passes(); }
};

/// Judges a step's SLOs on its own results (StepRecord::slos, slos_met).
void judge_slos(StepRecord& step, const std::vector<results::Slo>& slos);

/// Collapse: goodput ≥ this share below its peak while offered rose.
inline constexpr double k_collapse_drop = 0.10;

/// What the steps show. Indices are into the steps as given (the order they ran).
struct RampFindings {
  std::optional<std::size_t> capacity;  ///< the highest-offered step that passes
  std::optional<std::size_t>
      ceiling;  ///< the lowest-offered failing step above `capacity`: the bracket's top
  std::vector<std::size_t> failed_below;  ///< failing steps offered below `capacity` (noise, or a warning)
  /// Kneedle on p99 vs offered (convex, increasing), valid steps; kept only when the rise is beyond the
  /// confidence intervals: every valid step above the knee has its p99 CI wholly above every CI at or below
  /// it (flat noise with one slow blip has no knee).
  std::optional<std::size_t> knee_latency;
  std::optional<std::size_t>
      knee_goodput;                     ///< Kneedle on goodput vs offered (concave, increasing) from (0, 0)
  std::optional<std::size_t> peak;      ///< highest goodput among the planned (not refinement) valid steps
  std::optional<std::size_t> collapse;  ///< first planned step with goodput ≥ 10 % below the peak before it
  std::optional<std::size_t>
      collapse_confirmed_by;  ///< the next valid planned step, also ≥ 10 % below the peak
  /// Capacity, one number everywhere (the sentence, the table's mark, the JSON): the offered rate of the
  /// highest step that passed (`capacity`), never more than a step showed. The bracket above it is
  /// [capacity_low_rps = capacity_rps, capacity_high_rps = the first failing step's rate): the limit lies in it.
  /// capacity_tolerance is the bracket's width relative to capacity, (high − low) / low, what --tol bounds.
  /// Without a ceiling: high = low, width 0 and `bounded` false (capacity is a lower bound).
  double capacity_rps = 0, capacity_low_rps = 0, capacity_high_rps = 0, capacity_tolerance = 0;
  bool bounded = false;
};

/// Computes every finding (see RampFindings).
RampFindings analyse_ramp(const std::vector<StepRecord>& steps);

/// When a running ramp stops (--stop-at).
enum class StopAt { collapse, slo, never };
/// Parses "collapse", "slo", "never"; errors (usage) name `what`.
Result<StopAt> parse_stop_at(std::string_view text, std::string_view what = "--stop-at");
const char* to_string(StopAt s);

/// Whether the planned steps judged so far (refinements excluded) call for stopping, and why (empty: go on).
/// collapse: a collapse is confirmed. slo: the latest valid step failed (an SLO not met, or not steady), or a
/// collapse. Both: two INVALID steps in a row (the generator cannot apply the load; higher steps cannot be
/// better). never: never.
std::string stop_reason(const std::vector<StepRecord>& steps, StopAt at);

/// The next rate --refine should try: the middle of the bracket [capacity, ceiling] while its width is more
/// than `tolerance` (relative to capacity, e.g. 0.02: --tol); nullopt when within tolerance, when there is no
/// bracket, or when the latest refinement step was INVALID (a generator problem cannot be bisected away).
std::optional<double> next_refinement(const std::vector<StepRecord>& steps, double tolerance);

/// One sentence: capacity (the highest step that passed) and the first failing step above it, the knee on both curves, and collapse if seen.
std::string findings_sentence(const std::vector<StepRecord>& steps, const RampFindings& f);

}  // namespace openloop::procedures
