// --abort-on-slo: watches a run's results as intervals finalize and names the first SLO certain to fail.
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "results/run_results.h"
#include "results/judging/slo.h"

namespace openloop::results {

/// One run going on (a plan; several at once for a scenario file): its request names, in index order, and an
/// upper bound of the requests it will intend over its measured period (∞ when unknown, as for closed users).
struct SloAbortPart {
  std::vector<std::string> request_names;
  double planned_intended = 0;
};

/// Judges the results so far against every SLO with certain_to_fail(). Several parts are judged together, as
/// one run: counters and histograms added, requests matched by name, planned totals summed. Single-threaded
/// (the coordinator's progress callback).
class SloAbort {
 public:
  SloAbort(std::vector<Slo> slos, std::vector<SloAbortPart> parts);

  /// The first SLO certain to fail on `so_far` (one result per part, in the parts' order), or nullptr. Once
  /// one has been found it is returned again without judging.
  const Slo* check(const std::vector<const RunResults*>& so_far);
  /// The SLO found certain to fail, or nullptr.
  const Slo* failed() const { return m_failed; }
  /// check(), and the first time an SLO is certain to fail asks the run to stop gracefully: `stop` 0 → 1
  /// (left as it is when a signal asked first). Returns true when this call stopped the run.
  bool stop_if_certain(const std::vector<const RunResults*>& so_far, std::atomic<int>& stop);
  /// After the run: when this watcher stopped it, names the SLO in r.aborted_by_slo and clears r.interrupted
  /// (the coordinator marks any stop as an interruption) unless a signal asked too (`stop_value` above 1).
  void mark(RunResults& r, int stop_value) const;

 private:
  std::vector<Slo> m_slos;
  std::vector<SloAbortPart> m_parts;
  double m_planned = 0;
  const Slo* m_failed = nullptr;
  bool m_stopped = false;  ///< this watcher set the stop flag
};

}  // namespace openloop::results
