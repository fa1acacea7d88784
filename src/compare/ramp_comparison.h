// A candidate ramp against a baseline ramp: capacity and knees compared with the intervals the ramps give
// (the capacity's bracket, the knee's step resolution), p99 at the offered rates both ramps ran, and the
// capacity gates of --fail-on.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "compare/change.h"
#include "compare/comparison.h"
#include "compare/fail_on.h"
#include "core/error.h"
#include "procedures/ramp/ramp_read.h"
#include "report/junit.h"

namespace openloop::compare {

/// A rate a ramp found (capacity, a knee) with its interval; absent when the ramp found none.
struct RampRate {
  std::optional<double> rps;      ///< the finding (requests/s)
  std::optional<double> low_rps;  ///< the interval's low end
  std::optional<double>
      high_rps;  ///< its high end; absent when unbounded (a capacity with no failing step above)
};

/// Two ramp rates and the relative change candidate / baseline − 1 with the interval
/// [candidate.low / baseline.high − 1, candidate.high / baseline.low − 1]: it holds the true change whenever
/// each ramp's interval holds its own (the brackets are the ramps' whole uncertainty at step resolution; no
/// probability is attached). Significant (increased / decreased) when that interval excludes 0, i.e. the two
/// intervals do not overlap.
struct RampRateChange {
  std::string name;  ///< "capacity", "knee (p99)", "knee (goodput)"
  RampRate baseline, candidate;
  std::optional<double> change, low, high;
  Direction direction = Direction::unknown;
};

/// p99 at one offered rate both ramps ran (the first step at that rate in each), with each step's 95 %
/// order-statistic interval (as the ramp reports it), compared as compare_quantile() does.
struct RampStepChange {
  double offered_rps = 0;
  std::size_t baseline_step = 0, candidate_step = 0;  ///< step numbers
  QuantileChange p99;
};

struct RampComparison {
  std::string baseline_source, candidate_source;
  std::string baseline_plan_hash, candidate_plan_hash;  ///< of each ramp's first run
  bool same_plan = true;
  std::vector<RampRateChange> rates;  ///< capacity, knee (p99), knee (goodput)
  std::vector<RampStepChange> steps;  ///< ascending offered rate
  std::vector<FailOnResult> gates;
  std::string baseline_finding, candidate_finding;  ///< each ramp's own sentence
  std::string finding;  ///< "capacity -22.0 % [-31.0 %, -12.0 %], significant; knee (p99) unchanged"
  bool significant = false;
  std::vector<std::string> notes;
  bool failed() const;
};

/// Compares two ramps read back (procedures::ramp_from_json). Refuses (usage) ramps of different plans
/// unless settings.allow_different_plans, and --fail-on gates other than capacity (naming the gate).
Result<RampComparison> compare_ramps(const procedures::ReadRamp& baseline,
                                     const procedures::ReadRamp& candidate, std::string baseline_source,
                                     std::string candidate_source, const CompareSettings& settings);

/// The terminal text: files, plans, the finding, the rates table and the p99-per-rate table, gates, notes.
std::string render_ramp_text(const RampComparison& c);
/// `openloop.compare/1` with "kind": "ramp": sources, plans, finding, rates, steps, fail_on (fail_on_json()),
/// failed, notes.
nlohmann::json ramp_comparison_json(const RampComparison& c);
/// One case per gate, or one "compare" case carrying the finding.
report::JunitReport junit_for_ramp_compare(const RampComparison& c);
/// A self-contained page: the finding and the tables, and p99 against offered rate of both ramps as an SVG.
std::string render_ramp_compare_html(const RampComparison& c);

}  // namespace openloop::compare
