// --observe in a simulation (cli/simulate.cpp): the one source virtual time can show, its simulated service's
// `lab` signals, sampled on the simulator's clock.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/time.h"
#include "cli/run_options.h"
#include "engine/run_plan.h"
#include "observe/series.h"
#include "results/run_results.h"
#include "sim/simulator.h"

namespace openloop::cli {

// --observe lab in a simulation: the simulated service's /_lab/stats, read as the `lab` source reads a real
// lab's (observe::lab_readings), every 100 ms of virtual time from its start; the readings stamped on the
// Unix clock from the run's start, so they align with the intervals as a real run's do.
class SimulatedLabObserver {
 public:
  static constexpr Nanos k_period = std::chrono::milliseconds(100);
  /// `spec` as given (lab or lab:URL), `origin_unix_s` the run's wall-clock start (virtual time zero).
  SimulatedLabObserver(std::string spec, double origin_unix_s)
      : m_spec(std::move(spec)), m_origin_unix_s(origin_unix_s) {}
  /// Before the run: samples `world` from its start (sim::k_epoch) every k_period while it runs.
  void start(sim::Simulator& world);
  /// After the run: the series sampled, attached to `r` as a real observer's are.
  void attach(results::RunResults& r) const;

 private:
  void schedule(SteadyTime when);
  void sample();

  std::string m_spec;
  double m_origin_unix_s;
  sim::Simulator* m_world = nullptr;
  std::vector<observe::Series> m_series;
  std::vector<observe::Reading> m_readings;
  std::uint64_t m_samples = 0;
};

/// The --observe SPECs a simulation can follow: `lab` (or lab:URL, the URL ignored): its simulated service.
/// Others (processes, the host, cgroups, metrics endpoints) have nothing to show in virtual time: refused
/// (usage, naming the SPEC) from the flags, left out with a warning added to `warnings` from a plan file's
/// `observe:` list (plans.front().workload). Empty: nothing observed.
Result<std::string> simulated_observe_spec(const RunOptions& o, const std::vector<engine::RunPlan>& plans,
                                           std::vector<std::string>& warnings);

}  // namespace openloop::cli
