// `--fail-on 'p99>+10%'`: the gates of `openloop compare`, parsed and judged on a comparison.
#pragma once

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

/// A gate judged on one change.
struct FailOnResult {
  FailOn gate;
  bool evaluated = false;  ///< false: the change is unknown (no samples, too few for an interval, no counts)
  bool failed =
      false;  ///< evaluated and the gate tripped (or not evaluated: a gate that cannot be judged fails)
  std::string message;  ///< "p99 +18.2 % [+12.0 %, +24.1 %] is significant and > +10 %", or why not evaluated
};

/// Trips when the estimated change satisfies the gate's comparison AND the change is significant in that
/// direction (the interval excludes no change): noise never fails a build, a real change past the bound does.
/// `change` and the interval are those of the gate's metric; `direction` its judgement.
FailOnResult judge_fail_on(const FailOn& gate, std::optional<double> change, std::optional<double> low,
                           std::optional<double> high, Direction direction);

/// The gates as `openloop compare --json` writes them, for runs and ramps alike (docs/compare.md): an array
/// of
/// {"text": the gate as given, "evaluated", "failed", "message"}, in the order given. The document holds it
/// under "fail_on", beside "failed" (any gate tripped).
nlohmann::json fail_on_json(const std::vector<FailOnResult>& gates);

}  // namespace openloop::compare
