// `openloop ramp --metrics-listen`: the step being run as a live series of its own (labels step and rate),
// each judged step's final totals, and the ramp's own gauges (current step, steps judged, capacity so far).
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "procedures/ramp/ramp_analysis.h"
#include "procedures/ramp/ramp_plan.h"
#include "report/metrics/metrics_server.h"

namespace openloop::procedures {

/// Feeds a MetricsServer from a ramp. Every method is called on the thread running the ramp (the runner's
/// progress callback runs on the coordinator's thread, which is that thread for the ramp's runs).
class RampMetrics {
 public:
  /// `settings` and `server` must outlive this; `request_names` label per-request series.
  RampMetrics(report::MetricsServer& server, const procedures::RampSettings& settings, std::string run_id,
              std::vector<std::string> request_names);

  /// `inner` (the ramp's runner; empty: engine::run) with each finalized interval also published: the
  /// current step's window so far (results::slice_run), as series labelled step="N" rate="R/s".
  procedures::RunFn wrap(procedures::RunFn inner);
  /// A judged step: its series become the step's own results (as the ramp's results file holds them), its
  /// verdict invalid when the step is INVALID.
  void on_step(const procedures::StepRecord& step);
  /// The ramp's findings once it has ended: capacity and its bracket as gauges.
  void on_end(const procedures::RampFindings& findings);

 private:
  void progress(const results::RunResults& so_far, std::size_t run, double run_rate);
  std::size_t part(std::size_t number, double rate);
  void publish_gauges();

  report::MetricsServer& m_server;
  const procedures::RampSettings& m_settings;
  std::vector<double> m_rates;  // the planned rates
  std::string m_run_id;
  std::vector<std::string> m_names;
  std::size_t m_runs = 0;                      // runs started
  std::size_t m_judged = 0;                    // steps judged
  std::map<std::size_t, std::size_t> m_parts;  // step number → the server's part
  std::optional<procedures::RampFindings> m_findings;
  double m_current_rate = 0;
};

}  // namespace openloop::procedures
