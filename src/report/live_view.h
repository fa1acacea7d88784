// The live view of a running test: progress, the latest finished second, totals and the verdict so far, as
// text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/time.h"
#include "results/run_results.h"

namespace openloop::report {

/// What the live view knows of the plan.
struct LivePlan {
  Nanos warmup{0};
  Nanos duration{0};
  bool open = true;  ///< open model (closed runs have no schedule, so no drop/sent/lateness verdict)
  std::string label;  ///< shown after "openloop" when set, e.g. "shard 1/3" (its numbers are the shard's part)
};

/// Pure formatting state, no threads and no clock (LiveTicker drives it): update() takes the few numbers it
/// shows from the results so far, lines()/plain_line() render them for a given elapsed time. Not thread-safe.
///
/// Intervals are final only when all their requests have resolved (up to one timeout after they end), so the
/// "latest second" shown may lag the clock; the lines say which second they describe.
class LiveView {
 public:
  explicit LiveView(LivePlan plan) : m_plan(plan) {}

  /// Copies what the view shows from the results so far (cheap: no histogram copies). Coordinator thread.
  void update(const results::RunResults& so_far);
  /// Requests currently in flight, when the engine can tell (shown only once set).
  void set_in_flight(std::uint64_t n) { m_in_flight = n; }
  /// --observe: the sampler's latest values of the main signals (shown as a line of their own once any).
  void set_observed(std::vector<results::LatestObserved> latest) { m_observed = std::move(latest); }
  /// "observed: pid:12 CPU of its allowed cores 0.93, run-queue wait 0.41s/s · generator CPU 0.12 cores";
  /// empty without values.
  std::string observed_line() const;

  /// Two status lines (three with observed values) for a terminal at `elapsed` since the run started (warm-up
  /// included), each cut to `width` columns (UTF-8 aware), no control characters.
  std::vector<std::string> lines(Nanos elapsed, std::size_t width) const;
  /// One self-contained line for logs and pipes.
  std::string plain_line(Nanos elapsed) const;
  /// "VALID so far", "INVALID so far: dropped 2.31% > 1%", ... or a note while nothing is measured yet.
  std::string verdict_so_far() const;
  /// True once the run so far breaks a verdict bound (drops, sent fraction, send lateness).
  bool invalid_so_far() const { return !m_problems.empty(); }

 private:
  std::string prefix() const;
  std::string progress(Nanos elapsed) const;
  std::string latest() const;
  std::string totals() const;

  LivePlan m_plan;
  std::size_t m_intervals = 0;  ///< finalized measured intervals
  double m_last_start_s = 0, m_last_length_s = 1;
  results::Counters m_last;
  std::int64_t m_last_p99_ns = 0, m_last_count = 0;
  results::Counters m_totals;
  std::vector<std::string> m_problems;
  std::optional<std::uint64_t> m_in_flight;
  std::vector<results::LatestObserved> m_observed;
};

/// Cuts `text` to at most `width` display columns (code points), ending with "…" when cut.
std::string fit_columns(const std::string& text, std::size_t width);

}  // namespace openloop::report
