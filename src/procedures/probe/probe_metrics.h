// `openloop probe metastable --metrics-listen`: each phase of each run (baseline, trigger, observe, descend
// N) as series of their own (labels repeat and phase), live as the phase goes, and the probe's verdict at the
// end.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "procedures/probe/probe_plan.h"
#include "procedures/probe/probe_verdict.h"
#include "report/metrics/metrics_server.h"

namespace openloop::procedures {

/// Feeds a MetricsServer from a probe. Every method is called on the thread running the probe (the progress
/// callback runs on the coordinator's thread, which is that thread for a probe's runs).
class ProbeMetrics {
 public:
  /// `plan` and `server` must outlive this; `request_names` label per-request series.
  ProbeMetrics(report::MetricsServer& server, const procedures::ProbePlan& plan, std::string run_id,
               std::vector<std::string> request_names);

  /// A run starts (1-based): its phases get series labelled repeat="N".
  void start_run(unsigned repeat);
  /// A progress report of the current run: each phase with finalized intervals, sliced from `so_far`.
  void progress(const results::RunResults& so_far);
  /// The run has ended: each phase from its final results (verdict: the run's own), and its outcome.
  void end_run(const results::RunResults& results, const procedures::ProbeOutcome& outcome);

 private:
  void publish(const results::RunResults& run, bool final);
  void publish_gauges();

  report::MetricsServer& m_server;
  const procedures::ProbePlan& m_plan;
  std::string m_run_id;
  std::vector<std::string> m_names;
  unsigned m_repeat = 0;
  std::size_t m_done_phases = 0;  // phases of the current run whose series are final
  std::string m_phase;            // the phase with the latest finalized interval
  std::map<std::pair<unsigned, std::size_t>, std::size_t> m_parts;  // (repeat, phase) → the server's part
  std::vector<std::pair<unsigned, procedures::ProbeVerdict>> m_outcomes;  // each ended run's verdict
};

}  // namespace openloop::procedures
