// A metastable probe on virtual time: the trigger as a reconfiguration of the simulated service at its
// instant.
#include "sim/probe.h"

#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "lab/control_endpoint.h"
#include "procedures/probe/probe_trigger.h"
#include "sim/simulate.h"
#include "sim/simulator.h"

namespace openloop::sim {
namespace {

using procedures::Phase;
using procedures::Trigger;

/// The probe's lab, simulated: applies and restores the trigger's change, samples the service's state.
class SimulatedLab {
 public:
  SimulatedLab(const procedures::ProbePlan& plan, SteadyTime measure_start, std::atomic<int>& engine_stop)
      : m_plan(plan), m_measure_start(measure_start), m_engine_stop(engine_stop) {}

  /// Schedules the trigger and the sampling on `world`, until `sample_until`.
  void schedule(Simulator& world, SteadyTime sample_until) {
    m_world = &world;
    m_sample_until = sample_until;
    const Phase& trigger = m_plan.phase(Phase::Kind::trigger);
    const Trigger& t = m_plan.settings.trigger;
    if (t.kind == Trigger::Kind::stall) {
      world.at(m_measure_start + trigger.start, [this, length = trigger.length] { begin_stall(length); });
    } else if (t.kind == Trigger::Kind::dependency) {
      world.at(m_measure_start + trigger.start, [this] { begin_dependency(); });
      world.at(m_measure_start + trigger.end(), [this] { restore(); });
    }
    world.at(world.now(), [this] { sample(); });
  }
  /// After the run: the real probe restores what the trigger changed when its run ends (a stall list).
  void finish() {
    if (m_restore) record("at the run's end", *m_restore);
    m_restore.reset();
  }
  double since_measure() const { return to_seconds(m_world->now() - m_measure_start); }
  const std::optional<Error>& failure() const { return m_failure; }
  std::vector<procedures::LabSample>& samples() { return m_samples; }
  std::vector<std::string>& actions() { return m_actions; }

 private:
  void record(const std::string& when, const nlohmann::json& change) {
    m_actions.push_back(fmt::format("simulated {} {}", when, change.dump()));
  }
  void apply(const nlohmann::json& change) {
    record(fmt::format("at {:.3f}s", since_measure()), change);
    auto next = lab::apply_config_json(m_world->config(), change.dump());
    if (!next) return fail(next.error());
    m_world->reconfigure(next->config);
  }
  void fail(const Error& e) {
    if (!m_failure) m_failure = e;
    m_engine_stop.store(2);  // a probe without its trigger measures nothing
  }
  void begin_stall(Nanos length) {
    const nlohmann::json current =
        lab::config_to_json(m_world->config()).value("stall-at", nlohmann::json::array());
    m_restore = nlohmann::json{{"stall-at", current}};
    apply({{"stall-at", procedures::stall_list_with(current, m_world->now() - k_epoch, length)}});
  }
  void begin_dependency() {
    const nlohmann::json config = lab::config_to_json(m_world->config());
    const std::string current = config.value("dependency", std::string());
    auto during = procedures::dependency_during(current, m_plan.settings.trigger);
    if (!during) return fail(during.error());
    m_restore = nlohmann::json{{"dependency", current.empty() ? std::string("none") : current}};
    apply({{"dependency", *during}});
  }
  void restore() {
    if (!m_restore) return;
    const nlohmann::json change = std::move(*m_restore);
    m_restore.reset();
    apply(change);
  }
  void sample() {
    const auto stats = nlohmann::json::parse(
        lab::stats_json(m_world->snapshot(), lab::ServerCounters{}, m_world->config()), nullptr, false);
    if (auto s = procedures::lab_sample_of(stats, since_measure())) m_samples.push_back(*s);
    const SteadyTime next = m_world->now() + std::chrono::seconds(1);
    if (next <= m_sample_until) m_world->at(next, [this] { sample(); });
  }

  const procedures::ProbePlan& m_plan;
  SteadyTime m_measure_start;
  std::atomic<int>& m_engine_stop;
  Simulator* m_world = nullptr;
  SteadyTime m_sample_until{};
  std::optional<nlohmann::json> m_restore;
  std::optional<Error> m_failure;
  std::vector<procedures::LabSample> m_samples;
  std::vector<std::string> m_actions;
};

}  // namespace

Result<procedures::ProbeRun> simulate_probe(const engine::RunPlan& run_plan,
                                            const procedures::ProbePlan& plan,
                                            const procedures::ProbeContext& ctx, const lab::LabConfig& lab,
                                            std::atomic<int>& user_stop) {
  std::atomic<int> engine_stop{0};
  const SteadyTime measure_start = k_epoch + run_plan.start_offset + run_plan.warmup;
  SimulatedLab world_lab(plan, measure_start, engine_stop);
  procedures::ProbeProgress watch(plan, ctx.log);
  const bool descends = plan.phases.back().kind == Phase::Kind::descend;
  const double observe_end = to_seconds(plan.phase(Phase::Kind::observe).end());
  bool stopped_early = false;
  const auto progress = [&](const results::RunResults& so_far) {
    if (const int u = user_stop.load(); u > engine_stop.load()) engine_stop.store(u);
    if (watch.update(so_far) && descends && world_lab.since_measure() >= observe_end &&
        engine_stop.load() == 0) {
      stopped_early = true;
      engine_stop.store(1);
    }
    if (ctx.on_progress) ctx.on_progress(so_far);
  };
  const auto setup = [&](Simulator& world) {
    world_lab.schedule(world, measure_start + plan.measured + run_plan.timeout + std::chrono::seconds(1));
  };
  auto ran = simulate(run_plan, lab, engine_stop, progress, setup);
  if (!ran) return tl::unexpected(ran.error());
  if (world_lab.failure()) return runtime_error("the lab trigger failed: " + world_lab.failure()->message);
  world_lab.finish();
  procedures::ProbeRun run;
  run.results = std::move(ran->results);
  run.results.interrupted = user_stop.load() != 0;
  run.lab = std::move(world_lab.samples());
  run.lab_actions = std::move(world_lab.actions());
  // A simulation stopped at its request cap (closed users answered in zero time) cannot be judged.
  std::vector<std::string> invalid;
  for (const auto& reason : run.results.verdict.reasons) {
    if (reason.starts_with("the simulation stopped")) invalid.push_back(reason);
  }
  OPENLOOP_TRY_VOID(procedures::judge_probe_run(run, plan, ctx, stopped_early, invalid));
  return run;
}

}  // namespace openloop::sim
