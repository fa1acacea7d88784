// A candidate run against a baseline: every compared quantity with its interval, both verdicts and SLOs, the
// --fail-on gates and the one-line finding.
#pragma once

#include <string>
#include <vector>

#include "compare/change.h"
#include "compare/fail_on.h"
#include "core/error.h"
#include "report/report_input.h"
#include "results/run_results.h"

namespace openloop::compare {

struct CompareSettings {
  /// Probability that every compared quantity's interval holds its true change at once (Bonferroni over all
  /// of them), in (0, 1).
  double confidence = 0.95;
  /// Response-time percentiles compared (a gate's percentile is added when missing), each in (0, 100).
  std::vector<double> percentiles{50, 90, 99, 99.9};
  std::vector<FailOn> gates;
  /// What a gate the data cannot decide counts as (--inconclusive; default fail).
  InconclusivePolicy inconclusive = InconclusivePolicy::fail;
  bool allow_different_plans = false;
};

/// One rate or fraction, named ("goodput", "errors", ...).
struct NamedRate {
  std::string name;
  RateChange change;
};
struct NamedFraction {
  std::string name;
  FractionChange change;
};

struct Comparison {
  std::string baseline_source, candidate_source;        ///< the files as named on the command line
  std::string baseline_plan_hash, candidate_plan_hash;  ///< empty when a file records no plan (.hlog)
  bool same_plan = true;  ///< equal hashes, or unknown (then plan_checked is false)
  bool plan_checked = false;
  double confidence = 0.95;
  std::vector<QuantileChange> percentiles;  ///< ascending
  bool has_counts = true;                   ///< false when a side is an .hlog (latencies only)
  std::vector<NamedRate> rates;             ///< offered, throughput, goodput (empty without counts)
  std::vector<NamedFraction> fractions;     ///< errors, timeouts, dropped of intended (empty without counts)
  bool baseline_has_verdict = false, candidate_has_verdict = false;
  results::Verdict baseline_verdict, candidate_verdict;
  std::vector<results::SloResult> baseline_slos, candidate_slos;  ///< as each run judged its own
  std::vector<FailOnResult> gates;                                ///< in the order given
  /// false when the runs measure different things (a closed-model run against an open-model one): no numbers
  /// are compared, `not_comparable` says why and every gate is inconclusive.
  bool comparable = true;
  std::string not_comparable;
  /// How each compared percentile's interval was made for each run (estimate_run_quantile), in the order of
  /// `percentiles`.
  std::vector<IntervalBasis> baseline_basis, candidate_basis;
  std::string finding;       ///< one line, e.g. "p99 +18.0 % [+12.0 %, +24.1 %], significant; p50 unchanged"
  bool significant = false;  ///< any quantity changed significantly
  std::vector<std::string>
      notes;  ///< things to know (a plan not checked, an INVALID run, different plans allowed)
  hdr::Histogram baseline_response = results::make_latency_histogram();  ///< for the page's spectra
  hdr::Histogram candidate_response = results::make_latency_histogram();

  /// Some --fail-on gate failed, or was inconclusive under --inconclusive fail: exit 1.
  bool failed() const;
};

/// Compares `candidate` with `baseline`: each percentile on each run's effective sample size (its own
/// independence check), widened by batch means only where its samples are correlated, the change's interval
/// combining both runs' errors (compare_quantile). A closed-model (or pacing) run against an open-model one
/// is not compared (Comparison::comparable). Refuses (usage, naming both files and their plan hashes) runs of
/// different plans unless settings.allow_different_plans; a gate on counts when a side has none (an .hlog)
/// is refused too (usage).
Result<Comparison> compare_runs(const report::ReportInput& baseline, const report::ReportInput& candidate,
                                const CompareSettings& settings);

/// "+18.0 %" for 0.18 (relative) or "+0.50 pt" for 0.005 (points).
std::string signed_change(double v, bool points = false);

}  // namespace openloop::compare
