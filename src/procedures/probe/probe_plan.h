// The metastable probe's plan: its settings, its phases (baseline, trigger, observe, descending steps) and
// the staircase rate profile that runs them all as one open-model run.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/time.h"
#include "procedures/probe/probe_trigger.h"

namespace openloop::procedures {

/// When a window after the trigger counts as recovered, relative to the baseline (docs/probe.md).
struct RecoveryCriteria {
  /// Goodput ≥ this × baseline goodput (scaled by the window's planned rate).
  double min_goodput_fraction = 0.95;
  double max_p99_ratio = 1.10;  ///< p99 ≤ max(ratio × baseline p99, baseline p99 + p99_slack)
  Nanos p99_slack = std::chrono::milliseconds(1);  ///< absorbs scheduler jitter on sub-millisecond baselines
  double max_in_flight_ratio = 2.0;  ///< in flight ≤ max(ratio × baseline, baseline + in_flight_slack)
  double in_flight_slack = 1.0;      ///< requests; a baseline of 0.3 in flight may read 1.3 without alarm
  double max_amplification_ratio = 1.05;  ///< attempts per request ≤ ratio × the baseline's
  /// Added to the p99 bound (and offered × it to the in-flight bound); negative tightens. The probe uses
  /// ±(the generator's send-lateness p99) to ask whether its own lateness could have decided a verdict.
  /// Normally 0.
  Nanos lateness_allowance{0};
  nlohmann::json describe() const;
};

/// The probe as asked for. Durations of the measured phases are whole seconds (the results' interval).
struct ProbeSettings {
  double base_rate = 0;  ///< requests/s in warm-up, baseline, observe
  Trigger trigger;
  Nanos warmup = std::chrono::seconds(10);
  Nanos baseline = std::chrono::seconds(60);
  Nanos trigger_for = std::chrono::seconds(60);
  Nanos observe = std::chrono::seconds(180);
  Nanos window = std::chrono::seconds(30);  ///< the recovery window W, slid over 1-s intervals
  unsigned descend = 0;        ///< descending steps after observe, if not recovered at the base load
  double descend_step = 0.10;  ///< each step lowers the rate by this fraction of the base rate
  Nanos descend_for{0};        ///< length of each step (0: 2 × window)
  unsigned repeats = 1;
  RecoveryCriteria criteria;
};

/// One phase of the measured period; times are since the start of measurement (the end of the warm-up).
struct Phase {
  enum class Kind : std::uint8_t { baseline, trigger, observe, descend };
  Kind kind = Kind::baseline;
  unsigned step = 0;  ///< descend: 1, 2, ...
  double rate = 0;    ///< planned offered rate, requests/s
  Nanos start{0};
  Nanos length{0};
  Nanos end() const { return start + length; }
  /// "baseline", "trigger", "observe", "descend 1", ...
  std::string name() const;
};

/// The validated plan of one probe run.
struct ProbePlan {
  ProbeSettings settings;
  std::vector<Phase> phases;  ///< baseline, trigger, observe, then each descending step
  Nanos measured{0};          ///< sum of the phases

  const Phase& phase(
      Phase::Kind kind) const;  ///< the first phase of that kind (baseline, trigger, observe exist)
  /// The staircase as k6-style stages for --stages (zero-length steps between constant stretches), warm-up
  /// first; durations in whole milliseconds and rates in full precision, so the text parses back to the exact
  /// profile.
  std::string stages_text() const;
  /// Each phase as [from_s, to_s) of measured time: the windows the run checks for independence on their own
  /// (engine::RunPlan::check_windows), so each phase's intervals are widened by its own correlation.
  std::vector<std::pair<double, double>> check_windows() const;
  nlohmann::json describe() const;
};

/// Checks the settings and lays out the phases. Errors (usage) name the flag: phases that are not whole
/// seconds, a window longer than the observe phase or a descending step, a baseline under 2 s, a descending
/// step that would reach a rate ≤ 0, a stall length that contradicts --trigger-for.
Result<ProbePlan> make_probe_plan(ProbeSettings s);

}  // namespace openloop::procedures
