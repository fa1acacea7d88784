// Checking a plan's simulated length, running it on a Simulator, labelling the results.
#include "sim/simulate.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "engine/simulated_run.h"
#include "lab/control_endpoint.h"
#include "results/results_json.h"
#include "sim/simulator.h"

namespace openloop::sim {

namespace {
double mean_service_s(const lab::ModelConfig& m) {
  double s = m.cache > 0 ? to_seconds(std::min(m.hit.mean(), m.miss.mean())) : to_seconds(m.service.mean());
  if (m.dependency) s += to_seconds(m.dependency->mean());
  return s;
}
}  // namespace

double request_bound(const engine::RunPlan& plan, const lab::ModelConfig& model) {
  const double attempts = plan.retry.attempts;
  const double steps = static_cast<double>(std::max<std::size_t>(1, plan.steps.size()));
  if (!plan.user_driven()) {
    const double per_arrival = plan.model == engine::Model::sessions ? steps : 1.0;
    return plan.profile.total_expected() * per_arrival * attempts;
  }
  const double span = to_seconds(plan.warmup + plan.duration + plan.timeout);
  double iteration = to_seconds(plan.think.mean()) + steps * mean_service_s(model);
  for (const auto& step : plan.steps) iteration += to_seconds(step.think_after.mean());
  if (plan.model == engine::Model::pacing) iteration = std::max(iteration, to_seconds(plan.pacing));
  double per_s =
      iteration > 0 ? static_cast<double>(plan.users) / iteration : std::numeric_limits<double>::infinity();
  if (plan.model == engine::Model::pacing && plan.max_rate > 0) per_s = std::min(per_s, plan.max_rate);
  return per_s * span * steps * attempts;
}

Result<void> check_simulable(const engine::RunPlan& plan, const lab::LabConfig& lab) {
  if (plan.threads != 1) return usage_error("a simulated client is one worker (--threads 1)");
  if (plan.coalesce.count() > 0) {
    return usage_error("--coalesce: a simulated client wakes exactly when due; leave --coalesce out");
  }
  const double bound = request_bound(plan, lab.model);
  if (!(bound <= k_max_simulated_requests)) {
    return usage_error(
        std::isinf(bound)
            ? std::string("the plan would send without end in virtual time: closed users with no think time "
                          "against a service of zero time; give --think or a service time")
            : fmt::format("the plan would send about {:.3g} requests in virtual time, more than a simulation "
                          "runs ({:.0e}); shorten --duration or lower the rate or users",
                          bound, k_max_simulated_requests));
  }
  return {};
}

nlohmann::json to_json(const SimulatedRun& run) {
  nlohmann::json j = results::to_json(run.results);
  j["simulated"] = true;
  j["service_model"] = run.service_model;
  return j;
}

Result<SimulatedRun> simulate(const engine::RunPlan& plan, const lab::LabConfig& lab, std::atomic<int>& stop,
                              const std::function<void(const results::RunResults&)>& progress,
                              const std::function<void(Simulator&)>& setup) {
  OPENLOOP_TRY_VOID(check_simulable(plan, lab));
  Simulator world(lab, k_epoch);
  // A guard the estimate cannot give: closed users answered at once (429s, 503s) send again at the same
  // virtual instant, without end.
  world.limit_requests(static_cast<std::uint64_t>(k_max_simulated_requests), stop);
  if (setup) setup(world);
  auto ran = engine::run_simulated(plan, world, k_epoch, stop, progress);
  if (!ran) return tl::unexpected(ran.error());
  SimulatedRun out{std::move(*ran), lab::config_to_json(lab)};
  out.service_model.erase("listen");
  out.service_model.erase("duration");
  results::RunResults& r = out.results;
  if (world.limit_reached()) {
    r.interrupted = false;
    r.verdict.valid = false;
    r.verdict.reasons.push_back(fmt::format(
        "the simulation stopped at {:.3f} s of virtual time after {} requests: more than {:.0e} in all or {} "
        "at "
        "one virtual instant (closed users answered in zero time, e.g. shed with 429, send again at once and "
        "without end when the simulated network has no delay; give them --think)",
        to_seconds(world.now() - k_epoch), world.requests(), k_max_simulated_requests,
        Simulator::k_max_at_one_instant));
  }
  return out;
}

}  // namespace openloop::sim
