// One simulated run: a plan of the engine against the lab's service model on virtual time.
#pragma once

#include <atomic>
#include <functional>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/atomic_file.h"
#include "core/error.h"
#include "engine/coordinator.h"
#include "engine/run_plan.h"
#include "lab/model_config.h"
#include "results/run_results.h"

namespace openloop::sim {

class Simulator;

/// Virtual time zero of every simulation: a fixed instant, so nothing in a run depends on when it ran.
inline const SteadyTime k_epoch = SteadyTime(std::chrono::hours(1));

/// The most requests (attempts) a simulation may send: beyond this a plan is refused before it runs, and a
/// run that gets there anyway (closed users answered in zero time) is stopped and marked INVALID.
inline constexpr double k_max_simulated_requests = 1e9;

/// An upper estimate, from means, of the attempts `plan` sends against `model`: the schedule's arrivals
/// (open, sessions × steps), or each user's iterations over warm-up + duration + timeout at think time plus
/// mean service time per step (closed, pacing: at most one per pacing period, at most --max-rate); times the
/// retry policy's attempts. Infinity when users would send without end in virtual time (no think time
/// against a service of zero time).
double request_bound(const engine::RunPlan& plan, const lab::ModelConfig& model);

/// Refuses (usage, naming the reason) a plan a simulation cannot run: more than one thread, --coalesce, or
/// more than k_max_simulated_requests by request_bound().
Result<void> check_simulable(const engine::RunPlan& plan, const lab::LabConfig& lab);

/// check_simulable() of each plan of a scenario file (they run at once against one service), and of their
/// request bounds together.
Result<void> check_simulable(const std::vector<engine::RunPlan>& plans, const lab::LabConfig& lab);

/// A simulated run: the results (as a real run's) and the service model it ran against.
struct SimulatedRun {
  results::RunResults results;
  /// The model's settings as GET /_lab/config shows them (without listen and duration, which it ignores).
  nlohmann::json service_model;
  /// What the service did, as GET /_lab/stats counts it at the run's end: arrivals, ok, errors, shed,
  /// rejected, expired, cancelled, cache, and the queue, held and busy workers left (without the server's
  /// socket counters, the config and the per-second history).
  nlohmann::json service_stats;
};

/// The spill files the run is parked in (results::spill_files), for the output pipeline's check.
inline std::vector<std::shared_ptr<const results::SpillFile>> spill_files(const SimulatedRun& run) {
  return results::spill_files(run.results);
}

/// The results file of a simulated run: results::to_json of its results with "simulated": true, its
/// "service_model" and "service_stats".
nlohmann::json to_json(const SimulatedRun& run);
/// The same document written one interval at a time (results::write_json).
Result<void> write_json(const SimulatedRun& run, const WriteSink& sink);

/// A simulated run of several plans at once (a scenario file's scenarios against one service): one result
/// per plan, in order, as engine::run_all() returns them, and the service model.
struct SimulatedRuns {
  std::vector<results::RunResults> results;
  nlohmann::json service_model;
  nlohmann::json service_stats;  ///< SimulatedRun::service_stats: the one service all plans shared
};

/// The simulated service's state as GET /_lab/stats reports it (lab::stats_json), for the observed `lab`
/// signals and service_stats.
nlohmann::json service_stats(Simulator& world);

/// simulate() of several plans at once, against one simulated service (engine::run_simulated_all): each
/// plan's worker on a fiber of its own, the scenarios sharing the service's workers, queue and counters.
/// `progress` as engine::run_all()'s. Errors: those of check_simulable(plans, lab). A run stopped by the
/// request cap marks every plan's result INVALID, naming the cap.
Result<SimulatedRuns> simulate_all(const std::vector<engine::RunPlan>& plans, const lab::LabConfig& lab,
                                   std::atomic<int>& stop, const engine::MultiProgressFn& progress = {},
                                   const std::function<void(Simulator&)>& setup = {});

/// Runs `plan` (one worker: plan.threads must be 1, spin_below and coalesce 0) against a lab service of
/// `lab`'s configuration, in virtual time, on the calling thread. Deterministic: the same plan and
/// configuration give the same results apart from the wall-clock timestamps. `stop` is honoured as in a real
/// run (checked every loop round). Errors (usage, nothing run): those of check_simulable(). `progress` as
/// engine::run's, once per finalized interval of virtual time (a ramp judges its steps there). `setup`, when
/// given, is called with the world before the run starts (at virtual time k_epoch, where the plan's schedule
/// starts too): a probe schedules its lab triggers on it (Simulator::at).
Result<SimulatedRun> simulate(const engine::RunPlan& plan, const lab::LabConfig& lab, std::atomic<int>& stop,
                              const std::function<void(const results::RunResults&)>& progress = {},
                              const std::function<void(Simulator&)>& setup = {});

}  // namespace openloop::sim
