// --observe in a simulation (cli/simulated_observer.h).
#include "cli/simulated_observer.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/units.h"
#include "observe/endpoint_sources.h"
#include "observe/observer.h"
#include "sim/simulate.h"

namespace openloop::cli {

void SimulatedLabObserver::start(sim::Simulator& world) {
  m_world = &world;
  schedule(sim::k_epoch);
}

void SimulatedLabObserver::attach(results::RunResults& r) const {
  results::SamplerStats stats;
  stats.period_s = to_seconds(k_period);
  stats.samples = m_samples;
  stats.wall_s = static_cast<double>(m_samples) * stats.period_s;
  observe::attach_series(r, {m_spec}, m_series, stats, {});
}

void SimulatedLabObserver::schedule(SteadyTime when) {
  m_world->at(when, [this] {
    sample();
    schedule(m_world->now() + k_period);
  });
}

void SimulatedLabObserver::sample() {
  m_readings.clear();
  observe::lab_readings(sim::service_stats(*m_world), m_readings);
  const double t = m_origin_unix_s + to_seconds(m_world->now() - sim::k_epoch);
  for (const auto& reading : m_readings) {
    auto it = std::find_if(m_series.begin(), m_series.end(),
                           [&](const observe::Series& s) { return s.name == reading.name; });
    if (it == m_series.end()) {
      m_series.push_back({m_spec, reading.name, *reading.meta, to_seconds(k_period), {}});
      it = m_series.end() - 1;
    }
    it->points.emplace_back(t, reading.value);
  }
  ++m_samples;
}

Result<std::string> simulated_observe_spec(const RunOptions& o, const std::vector<engine::RunPlan>& plans,
                                           std::vector<std::string>& warnings) {
  const auto is_lab = [](const std::string& spec) { return spec == "lab" || spec.rfind("lab:", 0) == 0; };
  std::string chosen;
  for (const auto& spec : o.observe) {
    if (!is_lab(spec)) {
      return usage_error(fmt::format(
          "--observe {}: a simulation observes only its simulated service (--observe lab: its /_lab/stats "
          "signals every 100 ms of virtual time); processes, the host, cgroups and metrics endpoints have "
          "nothing to show in virtual time",
          spec));
    }
    if (chosen.empty()) chosen = spec;
  }
  if (plans.front().workload) {
    for (const auto& spec : plans.front().workload->observe) {
      if (is_lab(spec)) {
        if (chosen.empty()) chosen = spec;
      } else {
        warnings.push_back(fmt::format(
            "observe: {} (in the plan file) is not observed in a simulation: only its service (lab) is",
            spec));
      }
    }
  }
  return chosen;
}

}  // namespace openloop::cli
