// Checking a plan's simulated length, running it on a Simulator, labelling the results.
#include "sim/simulate.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "engine/simulated_run.h"
#include "lab/control_endpoint.h"
#include "results/files/results_json.h"
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
  if (plan.protocol == engine::ProtocolChoice::http2) {
    return usage_error(
        "--protocol h2: a simulated client speaks HTTP/1.1 to the lab's model (one request per connection at a "
        "time); leave --protocol out, or run against `openloop lab --http2` (docs/http2.md)");
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

nlohmann::json service_stats(Simulator& world) {
  return nlohmann::json::parse(
      lab::stats_json(world.snapshot(), world.server_counters(), world.config(), world.auth_counters()));
}

Result<void> check_simulable(const std::vector<engine::RunPlan>& plans, const lab::LabConfig& lab) {
  double bound = 0;
  for (const auto& plan : plans) {
    if (plans.size() > 1 && plan.coalesce.count() == 0 && plan.threads == 1) {
      bound += request_bound(plan, lab.model);
      if (!(bound <= k_max_simulated_requests)) break;
    }
    auto ok = check_simulable(plan, lab);
    if (!ok) {
      if (plans.size() == 1 || plan.scenario.empty()) return ok;
      return usage_error(fmt::format("scenario {}: {}", plan.scenario, ok.error().message));
    }
  }
  if (!(bound <= k_max_simulated_requests)) {
    return usage_error(fmt::format(
        "the scenarios together would send about {:.3g} requests in virtual time, more than a simulation "
        "runs ({:.0e}); shorten them or lower their rates or users",
        bound, k_max_simulated_requests));
  }
  return {};
}

namespace {
nlohmann::json simulated_fields(const SimulatedRun& run) {
  nlohmann::json j = {{"simulated", true}, {"service_model", run.service_model}};
  if (!run.service_stats.is_null()) j["service_stats"] = run.service_stats;
  return j;
}
}  // namespace

nlohmann::json to_json(const SimulatedRun& run) {
  nlohmann::json j = results::to_json(run.results);
  const nlohmann::json fields = simulated_fields(run);
  for (const auto& [key, value] : fields.items()) j[key] = value;
  return j;
}

Result<void> write_json(const SimulatedRun& run, const WriteSink& sink) {
  return results::write_json(run.results, sink, simulated_fields(run));
}

Result<SimulatedRuns> simulate_all(const std::vector<engine::RunPlan>& plans, const lab::LabConfig& lab,
                                   std::atomic<int>& stop, const engine::MultiProgressFn& progress,
                                   const std::function<void(Simulator&)>& setup) {
  OPENLOOP_TRY_VOID(check_simulable(plans, lab));
  Simulator world(lab, k_epoch);
  // A guard the estimate cannot give: closed users answered at once (429s, 503s) send again at the same
  // virtual instant, without end.
  world.limit_requests(static_cast<std::uint64_t>(k_max_simulated_requests), stop);
  if (setup) setup(world);
  // The single-key warning needs no special case here: the simulated lab's answers say whether it has a cache
  // (Server-Timing `cache;desc=off` without --cache), as the real lab's do.
  auto ran = engine::run_simulated_all(plans, world, k_epoch, stop, progress);
  if (!ran) return tl::unexpected(ran.error());
  SimulatedRuns out{std::move(*ran), lab::config_to_json(lab), service_stats(world)};
  for (const char* key : {"server", "bad_requests", "config", "history"}) out.service_stats.erase(key);
  out.service_model.erase("listen");
  out.service_model.erase("duration");
  if (!world.limit_reached()) return out;
  for (results::RunResults& r : out.results) {
    r.interrupted = false;
    r.verdict.valid = false;
    r.verdict.reasons.push_back(fmt::format(
        "the simulation stopped at {:.3f} s of virtual time after {} requests: more than {:.0e} in all or {} "
        "at one virtual instant (closed users answered in zero time, e.g. shed with 429, send again at once "
        "and without end when the simulated network has no delay; give them --think)",
        to_seconds(world.now() - k_epoch), world.requests(), k_max_simulated_requests,
        Simulator::k_max_at_one_instant));
  }
  return out;
}

Result<SimulatedRun> simulate(const engine::RunPlan& plan, const lab::LabConfig& lab, std::atomic<int>& stop,
                              const std::function<void(const results::RunResults&)>& progress,
                              const std::function<void(Simulator&)>& setup) {
  engine::MultiProgressFn each;
  if (progress)
    each = [&progress](const std::vector<const results::RunResults*>& r) { progress(*r.front()); };
  // One plan: copied into the vector simulate_all() takes (a plan is a few hundred bytes and a shared_ptr).
  auto ran = OPENLOOP_TRY(simulate_all({plan}, lab, stop, each, setup));
  return SimulatedRun{std::move(ran.results.front()), std::move(ran.service_model),
                      std::move(ran.service_stats)};
}

}  // namespace openloop::sim
