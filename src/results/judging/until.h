// --until: run past --duration until each named percentile's confidence interval is as narrow as asked, or
// stop at --max-duration and say how much longer it would have taken.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "hdr/histogram.h"

namespace openloop::results {

struct RunResults;

/// One --until target: the response time's `percentile` known to within ± `relative` (its 95 % interval's
/// larger half-width over the value).
struct UntilTarget {
  double percentile = 99;  ///< in (0, 100)
  double relative = 0.05;  ///< in (0, 1)
  std::string text;        ///< as given, e.g. "p99:±5%"
};

/// Parses "p99:±5%" (also "p99.9:+-10%", "p99:5%", "p50:±0.5%"). Errors (usage) name --until, the text and
/// the accepted form.
Result<UntilTarget> parse_until(std::string_view text);

/// How a target ended.
struct UntilOutcome {
  UntilTarget target;
  bool met = false;
  /// The relative half-width reached; nullopt when a side of the interval is missing (too few samples).
  std::optional<double> achieved;
  std::uint64_t samples = 0;
  /// Not met: about how many more seconds at the run's rate would have met it (the half-width shrinks as
  /// 1/√n); 0 when met.
  double more_seconds = 0;
  /// "p99 ±5 %: met (±3.2 %)" or "not enough samples for p99.9 ±10 %: would need about 140 more seconds at
  /// this rate".
  std::string sentence() const;
};

/// Judges every target on `response_time` (nanoseconds) over `measured_s` seconds. `effective_fraction` in
/// (0, 1]: the share of the samples that counts as independent (RunChecks' independence check; 1 while the
/// run goes, when it is not known yet). Pure.
std::vector<UntilOutcome> judge_until(const std::vector<UntilTarget>& targets, const hdr::Histogram& response_time,
                                      double measured_s, double effective_fraction = 1);

/// Watches a run as its intervals finalize (the coordinator's merged histogram: no work on worker loops) and
/// asks it to stop once it has measured at least `min_measured_s` (--duration) and every target is met.
/// Single-threaded (the progress callback).
class UntilWatcher {
 public:
  UntilWatcher(std::vector<UntilTarget> targets, double min_measured_s);
  /// Whether `so_far` (finalized intervals) satisfies every target after the minimum duration.
  bool satisfied(const RunResults& so_far) const;
  /// satisfied(), and the first time asks the run to stop gracefully: `stop` 0 → 1 (left alone when a signal
  /// or another watcher asked first). Returns true when this call stopped the run.
  bool stop_if_done(const RunResults& so_far, std::atomic<int>& stop);
  /// After the run: when this watcher stopped it, clears r.interrupted (any stop counts as one) unless a
  /// signal asked too (`stop_value` above 1); then judges every target on the final results (their intervals
  /// on the effective sample size) into r.checks.until.
  void mark(RunResults& r, int stop_value) const;
  const std::vector<UntilTarget>& targets() const { return m_targets; }
  double min_measured_s() const { return m_min_measured_s; }

 private:
  std::vector<UntilTarget> m_targets;
  double m_min_measured_s;
  bool m_stopped = false;
};

}  // namespace openloop::results
