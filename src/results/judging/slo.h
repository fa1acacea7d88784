// Service-level objectives (`--slo 'p99<=200ms'`): parsing, evaluation on a run's histograms and counters,
// and the early "certain to fail" judgement behind --abort-on-slo.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace openloop::results {

struct RunResults;

/// One objective, e.g. "checkout:p99<=300ms": a metric of the run (or of one named request), an operator, a
/// threshold. Latency metrics are on the response time (from the intended time; timeouts count censored at
/// the deadline), the headline latency everywhere in openloop.
struct Slo {
  std::string text;     ///< as given, e.g. "checkout:p99<=300ms"
  std::string request;  ///< request name it applies to; "" = the whole run
  /// percentile/mean/max: response time. errors: requests that failed without a usable response *or* got a
  /// status outside --success (what a user sees as an error). timeouts, dropped: those counters. goodput: ok
  /// requests. Fractions are of intended requests. throughput: completed responses (any status) per second.
  enum class Metric : std::uint8_t {
    percentile,
    mean,
    max,
    errors,
    timeouts,
    dropped,
    goodput,
    throughput
  } metric = Metric::percentile;
  double percentile = 0;  ///< for Metric::percentile, e.g. 99, 99.9; in (0, 100]
  enum class Op : std::uint8_t { lt, le, gt, ge } op = Op::le;
  /// Latency metrics: nanoseconds; errors/timeouts/dropped/goodput: a fraction (0.001 = 0.1%) of intended
  /// requests (goodput: ok / intended); throughput: requests/s.
  double threshold = 0;
  /// The objective applied when none was given (default_slo()): printed as "default SLO".
  bool is_default = false;
};

/// The objective `run` and `ramp` judge when no --slo is given: goodput>=99% (ok / intended), marked
/// is_default. k6 judges nothing without thresholds; openloop judges goodput by default and says so
/// (`--slo none` measures without judging).
Slo default_slo();

/// Parses "p99<=200ms", "p99.9<1s", "mean<50ms", "max<=2s", "errors<=0.1%", "timeouts<1%", "dropped<1%",
/// "goodput>=99%", "throughput>=500/s", optionally prefixed "NAME:" for one request (the name is everything
/// before the last ':', so "GET /:p99<=1s" names the request "GET /"). Operators: <, <=, >, >=; spaces around
/// them are ignored. Latencies take the units of --timeout (250ms, 1.5s, 500us); fractions a percentage
/// (0.1%, 99%) or 0; throughput a rate (500/s, 30000/m). `what` names the flag. Errors (usage) quote the
/// text, say what is wrong and list the accepted forms.
Result<Slo> parse_slo(std::string_view text, std::string_view what = "--slo");

/// An objective judged on a run.
struct SloResult {
  Slo slo;
  bool evaluated = false;  ///< false when there was nothing to evaluate (no samples, unknown request name)
  bool met = false;
  double measured = 0;                        ///< same unit as threshold
  std::string measured_text, threshold_text;  ///< human form ("212ms", "0.42%"); measured_text says why when
                                              ///< not evaluated ("no samples", "no request named ...")
};

/// Evaluates on the run's histograms and counters (never on averaged percentiles); per-request SLOs use the
/// per-request breakdown (RunResults::by_request, names in info.request_names). A run with one request has no
/// breakdown: an SLO naming that request (info.request_names[0]) is evaluated on the run's totals.
std::vector<SloResult> evaluate_slos(const std::vector<Slo>& slos, const RunResults& r);
/// Every SLO evaluated and met (true for none).
bool all_met(const std::vector<SloResult>& results);

/// For --abort-on-slo: true once failure is certain whatever happens in the rest of the run, judged on the
/// results so far and the planned total of intended requests (e.g. errors already exceed threshold × planned
/// total; a latency percentile is certain to fail once more than (1 − p) × planned total samples exceed the
/// threshold). `planned_intended` must be an upper bound of the run's final intended count (measured period);
/// ≤ 0 or infinite means unknown (closed models): then only max ≤/< can be certain. A per-request SLO bounds
/// its request's total by planned_intended minus the other requests' intended so far. Never certain for
/// throughput (it depends on the final measured period), for lower bounds on latencies other than
/// percentiles, or for upper bounds on goodput. Names of requests come from so_far.info.request_names.
bool certain_to_fail(const Slo& slo, const RunResults& so_far, double planned_intended);
/// The same with the request names given apart (the coordinator's results so far carry no RunInfo yet).
bool certain_to_fail(const Slo& slo, const RunResults& so_far, double planned_intended,
                     const std::vector<std::string>& request_names);

/// Adds `part` into `into` for SLO evaluation of runs that ran together (scenario files): RunResults::add
/// (counters, histograms, the per-request breakdown matched by `names`, part's request names in index order),
/// and into.measured_s becomes the longest measured period. Exact: histograms are added.
void add_for_slos(RunResults& into, const RunResults& part, const std::vector<std::string>& names);

/// "p99" for percentile 99, "mean", "errors", ... (the metric part of an SLO's text, without the request).
std::string metric_name(const Slo& slo);
/// "<", "<=", ">", ">=".
std::string_view op_text(Slo::Op op);

}  // namespace openloop::results
