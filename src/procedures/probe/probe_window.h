// The metastable probe's measurements over spans of 1-s intervals: rates, p99 from merged histograms, in
// flight by Little's law, amplification; the baseline's steadiness and the recovery test of one window.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "hdr/histogram.h"
#include "procedures/probe/probe_plan.h"
#include "results/recording/counters.h"
#include "results/run_results.h"

namespace openloop::procedures {

/// One interval of the measured period, as the analysis needs it (intervals hold the requests *intended* in
/// them).
struct Sample {
  double start_s = 0;  ///< since the start of measurement
  double length_s = 1;
  results::Counters counters;
  /// Nanoseconds, timeouts censored at the deadline.
  hdr::Histogram response_time = results::make_latency_histogram();
  hdr::Histogram send_lateness = results::make_latency_histogram();  ///< ns: actual send − intended time
  /// Attempts sent for this interval's requests, retries included (results::Counters::attempts; `sent` for
  /// files written before attempts were counted). Amplification is attempts / sent.
  double attempts = 0;
};

/// The samples of a run's finalized intervals, histograms decoded. Errors (runtime) name the interval whose
/// histogram does not decode.
Result<std::vector<Sample>> samples_of(const results::RunResults& r, std::size_t from = 0);

/// The samples whose interval lies inside [start, end) (a phase, a window).
std::span<const Sample> span_of(const std::vector<Sample>& all, Nanos start, Nanos end);

/// What a span of intervals measured. Rates are per second of the span; fractions are of intended requests.
struct Stats {
  double seconds = 0;
  std::uint64_t intended = 0;
  double offered = 0, throughput = 0, goodput = 0;  ///< requests/s: intended, completed, ok
  std::int64_t p50_ns = 0, p90_ns = 0, p99_ns = 0, max_ns = 0;
  double mean_ns = 0;
  double in_flight = 0;  ///< Little's law: offered × mean response time (requests in the system)
  double timeout_fraction = 0, not_ok_fraction = 0;  ///< timeouts; everything but ok
  double dropped_fraction = 0;
  double sent_fraction = 1;  ///< logical requests sent / intended (1 when none was intended)
  /// Attempts / logical requests sent (1 without retries or when nothing was sent).
  double amplification = 1;
  std::int64_t lateness_p99_ns = 0;  ///< the generator's send lateness, p99
  nlohmann::json to_json() const;
};
Stats stats_of(std::span<const Sample> samples);

/// The highest of p99, p90 and p50 that `n` requests estimate with at least 10 requests above it: p99 from 1,000
/// requests, p90 from 100, else the median. Among 40 requests the "p99" is the slowest one, and one scheduler
/// hiccup is not "the p99 rose".
struct Tail {
  const char* name;            ///< "p99", "p90", "p50"
  std::int64_t Stats::*value;  ///< the Stats field that holds it
};
Tail estimable_tail(std::uint64_t n);

/// One recovery criterion as measured.
struct Check {
  std::string name;  ///< "goodput", "p99", "in flight", "amplification"
  double measured = 0, bound = 0;
  bool met = false;
  std::string text;  ///< "goodput 299.6/s ≥ 285/s"
};

/// One window judged against the baseline.
struct WindowJudgement {
  double start_s = 0, end_s = 0;
  double rate = 0;  ///< planned offered rate of the phase it lies in
  Stats stats;
  std::vector<Check> checks;
  bool met = false;  ///< every check met
  nlohmann::json to_json() const;
};

/// Judges `window` (planned at `rate`) against the baseline (planned at `base_rate`) with the criteria.
WindowJudgement judge_window(std::span<const Sample> window, double rate, const Stats& baseline,
                             double base_rate, const RecoveryCriteria& c);

/// The baseline and whether it was steady enough to compare with.
struct BaselineJudgement {
  Stats stats;
  bool steady = false;
  /// Why not steady, one sentence each with the measured value and the bound.
  std::vector<std::string> problems;
};

/// Steady: goodput ≥ 95 % of offered (the base load is served); per-second goodput varies by at most
/// max(10 %, 3/√n) (n = requests per interval: Poisson noise); the halves agree (goodput within max(10 %,
/// 3·√(2/m)), m = requests in a half; p99 of the second ≤ 2 × the first's + 1 ms, or the p90 below 1,000
/// requests per half, the median below 100; in flight of the second ≤ 2 × the first's + 1).
BaselineJudgement judge_baseline(std::span<const Sample> baseline);

}  // namespace openloop::procedures
