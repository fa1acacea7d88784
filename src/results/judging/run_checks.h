// The run's statistical self-checks: was the arrival process the one planned, are the latency samples
// independent, and how sure is each percentile. Computed once after the run (engine/self_checks), kept in the
// results file, judged into the verdict.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "hdr/histogram.h"
#include "results/json_reader.h"
#include "results/judging/until.h"

namespace openloop::results {

/// One worker's lane of the arrival schedule, its achieved sends tested against what it was planned to do.
struct LaneArrivals {
  unsigned worker = 0;
  std::uint64_t recorded =
      0;  ///< arrivals whose issue time was recorded (all of them unless the trace filled)
  /// poisson: "anderson-darling" (A² of the gaps' probability transform under the lane's planned process, on
  /// a sample of at most 2,000 gaps spread over the run); constant: "dispersion" (standard deviation of
  /// achieved − planned gaps, in units of the lateness bound).
  std::string test;
  std::uint64_t tested = 0;  ///< gaps the statistic was computed on
  double statistic = 0, critical = 0;
  /// poisson lanes with one global arrival per gap: A²·(1 + 0.6/n) against the exponential at the sample's
  /// own rate (is it exponential at all?), and its critical value; nullopt otherwise. Reported, not judged.
  std::optional<double> own_rate_statistic, own_rate_critical;
  /// Share of achieved gaps below `bunch_below_ns` (a tenth of the lane's mean planned gap), and the share
  /// the plan has there, over every recorded gap.
  double bunched = 0, planned_bunched = 0;
  double bunch_below_ns = 0;
  bool passed = true;
};

/// The achieved arrival process against the plan.
struct ArrivalCheck {
  bool tested = false;
  std::string why_not;           ///< when not tested: why (closed model, too few arrivals, ...)
  std::string process;           ///< "poisson" | "constant"
  std::string level;             ///< the significance level of the A² test, e.g. "1 %"
  double lateness_bound_ns = 0;  ///< the unit of the constant process's dispersion
  /// --accept-bunching: a failed check is reported but does not make the run INVALID.
  bool accepted = false;
  std::vector<LaneArrivals> lanes;
  bool passed() const;
  /// One plain sentence on the worst failing lane ("worker 0: sends bunched: 38 % of gaps under 10 µs where
  /// the plan has 4 % (A² 41.2 > 3.857 at 1 %)"); empty when every lane passed.
  std::string failure() const;
};

/// Latency samples in send order: do they depend on each other? (stats/autocorrelation.h)
struct IndependenceCheck {
  bool tested = false;
  std::uint64_t samples = 0;     ///< response times analysed (measured period, merged by intended time)
  double lag1 = 0;               ///< rank autocorrelation at lag 1
  std::uint64_t vanish_lag = 1;  ///< first lag where it is indistinguishable from 0 (1: independent)
  bool vanished = true;          ///< false: still correlated at the last lag computed
  double threshold = 0;          ///< 1.96 / √samples
  /// Effective sample size as a share of the samples (0..1]: the intervals use n × this.
  double effective_fraction = 1;
  /// √(1 / effective_fraction): how much wider the intervals are than independence would make them.
  double widening() const;
  /// Correlated enough to matter: intervals at least 10 % wider.
  bool correlated() const { return tested && widening() >= 1.1; }
};

/// The independence check over one window of the measured period (a ramp step, a probe phase): the plan names
/// the windows (engine::RunPlan::check_windows) and the run checks each on the samples whose intended time falls
/// in it, so a window's intervals are widened by its own correlation, not the whole run's.
struct WindowIndependence {
  double from_s = 0, to_s = 0;  ///< measured time (seconds after the warm-up), [from_s, to_s)
  IndependenceCheck independence;
};

/// One percentile of the response time with its 95 % interval on the effective sample size, and the interval
/// independence would have given. Nanoseconds.
struct PercentileInterval {
  double percentile = 0;
  std::int64_t value = 0;
  std::optional<std::int64_t> low, high;              ///< on the effective sample size
  std::optional<std::int64_t> naive_low, naive_high;  ///< on n, as if independent
  double effective_count = 0;
  std::optional<double> relative_half_width() const;
};

/// Every self-check of a run. Empty (nothing tested) for results that predate them, merges and combinations.
struct RunChecks {
  ArrivalCheck arrivals;
  IndependenceCheck independence;
  std::vector<PercentileInterval> response_time;  ///< p50, p90, p99, p99.9
  /// --until: each target, met or not, judged on the final intervals (effective sample size).
  std::vector<UntilOutcome> until;
  /// The windows the plan named, each checked on its own samples (empty when it named none).
  std::vector<WindowIndependence> windows;
  bool empty() const {
    return !arrivals.tested && !independence.tested && response_time.empty() && until.empty() &&
           windows.empty();
  }
  /// The check of the window [from_s, to_s) (either end within 1 ms), or null when it was not checked.
  const IndependenceCheck* window(double from_s, double to_s) const;
};

/// Percentile `p` of `h` with its 95 % interval on the effective sample size `check` gives (the naive interval
/// beside it); `check` null or untested: both on n.
PercentileInterval percentile_interval(const hdr::Histogram& h, double p, const IndependenceCheck* check);

/// "samples correlated at lag 12, effective n 310 of 2,000; interval widened ×2.5" when `check` found the samples
/// correlated, "" otherwise: the flag a ramp step or a probe phase prints beside its percentiles.
std::string correlation_flag(const IndependenceCheck& check);

/// Adds the reasons the checks make a run INVALID (a failed arrival check not accepted) to `reasons`.
void add_check_reasons(const RunChecks& c, std::vector<std::string>& reasons);

/// The terminal summary's one line, e.g. "checks: arrivals ✓ (A² 0.41 < 3.86), independence ✗ (lag 37,
/// effective n 2,711 of 100,000; intervals widened), p99 ± 2.1 %"; empty when nothing was checked.
std::string checks_line(const RunChecks& c);

nlohmann::json to_json(const RunChecks& c);
/// One independence check as the results file holds it (the run's, a window's, a ramp step's).
nlohmann::json to_json(const IndependenceCheck& c);
/// One --until (or a ramp step's --step-until) target's outcome as the results file holds it.
nlohmann::json to_json(const UntilOutcome& u);
/// Reads what to_json wrote from `checks` (e.g. the node at "/checks" or "/scenarios/0/checks"), by the rules
/// of JsonReader; errors (usage) name the reader's source and the field's path.
Result<RunChecks> run_checks_from_json(const JsonReader& rd, const JsonNode& checks);

}  // namespace openloop::results
