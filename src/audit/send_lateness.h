// An open-model tool's own send lateness, where its file numbers each send in its schedule (Vegeta's `seq`):
// how late each request left against the constant-rate schedule the numbers imply.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "audit/findings.h"
#include "audit/record.h"
#include "hdr/histogram.h"

namespace openloop::audit {

/// The schedule a constant-rate pacer kept, fitted to numbered sends: send n was due at origin + n·interval.
/// The file does not hold the rate the tool was given, so the fit takes the line under every send (no send
/// early) that leaves the least total lateness: a linear program whose answer is the lower convex hull's edge
/// at the mean number, found by a grid over the interval, narrowed once per pass. Passes over the records
/// (in send order, as often as searching() asks): learn() first, then search() while searching(), then
/// lateness(). Records without a number are ignored. Memory is fixed (a histogram and the grid).
class ScheduleFit {
 public:
  /// Pass 1: counts numbered sends, their mean number, and the median time between consecutive sends per
  /// number (where the grid starts).
  void learn(const Record& r);
  /// True when the file numbers at least two sends apart in time (else there is no schedule to fit).
  bool fittable() const;
  /// Starts a search pass (false once the grid is fine enough: go on to lateness()).
  bool begin_search();
  void search(const Record& r);
  /// Pass after the search: each send's lateness against the fitted schedule.
  void lateness(const Record& r);
  SendLatenessFinding finish(const std::string& tool) const;

 private:
  static constexpr int k_grid = 401;
  static constexpr int k_rounds = 3;
  std::int64_t m_numbered = 0;
  double m_seq_sum = 0;
  std::int64_t m_last_seq = -1;
  Nanos m_last_start{0};
  std::optional<Nanos> m_first_start;  // times are taken relative to it (doubles keep nanoseconds)
  hdr::Histogram m_gaps_ns = hdr::Histogram::auto_resizing(3);

  int m_round = 0;
  double m_low = 0, m_step = 0;         // the grid: intervals m_low + k·m_step (ns)
  std::vector<double> m_min;            // per grid point: min over sends of t − b·(n − mean n)
  double m_interval = 0, m_origin = 0;  // the fit (ns; origin relative to m_first_start)

  hdr::Histogram m_late = hdr::Histogram::auto_resizing(3);
  std::int64_t m_late_over_interval = 0;

  double relative(const Record& r) const;
  void settle();  // the best grid point of the pass just made becomes the fit
};

}  // namespace openloop::audit
