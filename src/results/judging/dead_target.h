// A dead target: a run whose every connection attempt failed is stopped early rather than run to its end, and
// says the target's failure is the target's, not the generator's.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "results/run_results.h"

namespace openloop::results {

/// True when the results so far (measured period and warm-up together) hold at least `min_failures` failed
/// connects and nothing else: no request completed, no other error (a TLS failure means something answered).
bool never_reached(const RunResults& so_far, std::uint64_t min_failures = 3);

/// The same for a plan file's scenarios run together: every scenario has tried (at least one failed connect)
/// and reached nothing, and together they failed at least `min_failures` connects. A scenario that has not
/// started yet keeps the run going (its target may answer).
bool never_reached(const std::vector<const RunResults*>& scenarios, std::uint64_t min_failures = 3);

/// Watches a run as intervals finalize (single-threaded: the coordinator's progress callback). The first
/// interval (or warm-up) that shows the target never reached (never_reached) asks the run to stop: `stop`
/// 0 → 1, left as it is when a signal asked first.
class DeadTargetWatch {
 public:
  /// `where`: the target as the message names it, e.g. "127.0.0.1:8080".
  explicit DeadTargetWatch(std::string where) : m_where(std::move(where)) {}

  /// Returns true when this call stopped the run.
  bool stop_if_dead(const RunResults& so_far, std::atomic<int>& stop);
  /// The same over a plan file's scenarios so far.
  bool stop_if_dead(const std::vector<const RunResults*>& so_far, std::atomic<int>& stop);
  bool stopped() const { return m_stopped; }
  /// After the run: when this watch stopped it, clears r.interrupted (the coordinator marks any stop as an
  /// interruption) unless a signal asked too (`stop_value` above 1), and adds a warning saying why it ended
  /// early.
  void mark(RunResults& r, int stop_value) const;
  /// "nothing listens at HOST:PORT (connection refused)" when the connect errors were refusals (the first
  /// connect error example says so), else "HOST:PORT could not be reached (EXAMPLE)".
  std::string why(const RunResults& r) const;

 private:
  std::string m_where;
  bool m_stopped = false;
};

}  // namespace openloop::results
