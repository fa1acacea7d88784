// `--fail-on 'p99>+10%'`: the gates of `openloop compare`, parsed and judged on a comparison.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "compare/change.h"
#include "core/error.h"

namespace openloop::compare {

/// One gate, e.g. "p99>+10%": a compared quantity, an operator and a signed change.
struct FailOn {
  std::string text;  ///< as given
  /// percentile: the response time's relative change. goodput (ok/s), throughput (completed/s): relative
  /// changes. errors, timeouts, dropped: the change of their fraction of intended requests, in points.
  /// capacity: a ramp's capacity, relative (two ramp files only).
  enum class Metric : unsigned char {
    percentile,
    goodput,
    throughput,
    errors,
    timeouts,
    dropped,
    capacity
  } metric = Metric::percentile;
  double percentile = 0;  ///< Metric::percentile: in (0, 100)
  enum class Op : unsigned char { gt, ge, lt, le } op = Op::gt;
  double bound = 0;  ///< 0.10 for "+10%" (relative, or points of intended for fractions)
};

/// Parses "p99>+10%", "p99.9>=25%", "goodput<-1%", "throughput<-5%", "errors>+0.5%", "timeouts>0%",
/// "dropped>+1%", "capacity<-5%" (spaces around the operator allowed; a bound without sign is taken as written, "10%" = +10
/// %). Errors (usage) quote the text, name `what` and list the accepted forms.
Result<FailOn> parse_fail_on(std::string_view text, std::string_view what = "--fail-on");

/// "p99", "goodput", ... (the metric part of a gate's text).
std::string metric_name(const FailOn& f);

/// What a gate decided. `inconclusive`: the change's interval holds the bound, so the data cannot tell at
/// this length whether the change is past it.
enum class Outcome : unsigned char { pass, fail, inconclusive };
const char* to_string(Outcome o);

/// What an inconclusive gate counts as (`--inconclusive fail|pass`). Default fail: a CI threshold (k6's, a
/// gate here) is expected to fail the build unless the data show the change within the bound; a gate that
/// cannot tell must not let a regression through unnoticed.
enum class InconclusivePolicy : unsigned char { fail, pass };
/// "fail" or "pass"; errors (usage) name `--inconclusive` and the accepted words.
Result<InconclusivePolicy> parse_inconclusive_policy(std::string_view word);

/// A gate judged on one change.
struct FailOnResult {
  FailOn gate;
  Outcome outcome = Outcome::inconclusive;
  bool evaluated = false;  ///< false: the change is unknown (no samples, too few for an interval, no counts)
  /// The gate counts as failed: outcome fail, or inconclusive under InconclusivePolicy::fail.
  bool failed = false;
  /// Inconclusive and evaluated: how many times longer both runs would need to be for the interval to clear
  /// the bound if the estimate stayed where it is (half-widths shrink as 1/√length); nullopt otherwise, or
  /// when the estimate sits on the bound (no length decides).
  std::optional<double> longer;
  std::string message;  ///< "p99 +18.2 % [+12.0 %, +24.1 %] is > +10.0 %: FAILED", or why not evaluated
};

/// Judges a gate on its change's interval. A gate with a non-zero bound ("p99>+10%"): fail when the whole
/// interval is past the bound, pass when the whole interval is on the right side of it, inconclusive when it
/// holds the bound. A zero bound ("timeouts>0%", "p99>0%") means "any change that way": fail when the change is
/// significant in the gate's direction, pass otherwise (no interval of two equal runs can lie below 0).
/// A gate without an interval (no samples, too few to bound, no counts) is inconclusive, not evaluated.
/// `change` and the interval are those of the gate's metric (relative, or points for fractions); `direction`
/// its judgement; `policy` what an inconclusive gate counts as.
FailOnResult judge_fail_on(const FailOn& gate, std::optional<double> change, std::optional<double> low,
                           std::optional<double> high, Direction direction,
                           InconclusivePolicy policy = InconclusivePolicy::fail);

/// The gates as `openloop compare --json` writes them, for runs and ramps alike (docs/compare.md): an array
/// of
/// {"text": the gate as given, "outcome": "pass" | "fail" | "inconclusive", "evaluated", "failed" (counted
/// as failed: fail, or inconclusive under --inconclusive fail), "longer" (inconclusive: how many times longer
/// the runs would need to be, or null), "message"}, in the order given. The document holds it
/// under "fail_on", beside "failed" (any gate tripped).
nlohmann::json fail_on_json(const std::vector<FailOnResult>& gates);

}  // namespace openloop::compare
