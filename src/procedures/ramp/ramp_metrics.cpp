// The ramp's live metrics: a step's window sliced from its run's results so far, then its judged results.
#include "procedures/ramp/ramp_metrics.h"

#include <fmt/format.h>

#include "engine/coordinator.h"
#include "results/merging/slice_run.h"

namespace openloop::procedures {

using Verdict = report::MetricsState::Verdict;

RampMetrics::RampMetrics(report::MetricsServer& server, const procedures::RampSettings& settings, std::string run_id,
                         std::vector<std::string> request_names)
    : m_server(server),
      m_settings(settings),
      m_rates(procedures::planned_rates(settings)),
      m_run_id(std::move(run_id)),
      m_names(std::move(request_names)) {
  publish_gauges();
}

procedures::RunFn RampMetrics::wrap(procedures::RunFn inner) {
  return [this, inner = std::move(inner)](const engine::RunPlan& plan, std::atomic<int>& stop,
                                          const engine::ProgressFn& progress) {
    const std::size_t run = m_runs++;
    const double rate = plan.profile.max_rate();
    const engine::ProgressFn both = [&](const results::RunResults& so_far) {
      if (progress) progress(so_far);  // first: the ramp judges a step that has just completed
      this->progress(so_far, run, rate);
    };
    return inner ? inner(plan, stop, both) : engine::run(plan, stop, both);
  };
}

std::size_t RampMetrics::part(std::size_t number, double rate) {
  if (auto found = m_parts.find(number); found != m_parts.end()) return found->second;
  report::MetricsContext c{m_run_id, "", m_names, rate, {}, {}};
  c.extra_labels = {{"step", std::to_string(number)}, {"rate", fmt::format("{:g}", rate)}};
  const std::size_t index = m_server.add_part(std::move(c));
  m_parts.emplace(number, index);
  return index;
}

void RampMetrics::progress(const results::RunResults& so_far, std::size_t run, double run_rate) {
  // The step being run is the one after the steps judged (they are judged in the order they run). A staircase
  // (the first run, without --fresh) carries the planned steps one after another; every other run is one step
  // after a silence (none before the first run).
  const std::size_t number = m_judged + 1;
  procedures::StepWindow w;
  if (run == 0 && !m_settings.fresh) {
    if (m_judged >= m_rates.size()) return;
    w = procedures::staircase_window(m_judged, m_rates[m_judged], m_settings.warmup, m_settings.hold);
  } else {
    w = procedures::single_step_window(run_rate, run == 0 ? Nanos(0) : m_settings.cooldown, m_settings);
  }
  m_current_rate = w.offered_rps;
  results::GoodputDeadline goodput{m_settings.step.deadline, m_settings.step.timeout};
  auto window = results::slice_run(so_far, w.from_s, w.to_s, goodput);
  if (!window || window->intervals.empty()) {  // still in the step's warm-up
    publish_gauges();
    return;
  }
  const std::size_t index = part(number, w.offered_rps);
  m_server.update(*window, false, index);
  publish_gauges();
}

void RampMetrics::on_step(const procedures::StepRecord& step) {
  m_judged = std::max(m_judged, step.number);
  const procedures::StepAnalysis& a = step.analysis;
  const Verdict verdict = a.state == procedures::StepState::invalid ? Verdict::invalid : Verdict::valid;
  m_server.update(a.results, verdict, part(step.number, a.window.offered_rps));
  publish_gauges();
}

void RampMetrics::on_end(const procedures::RampFindings& findings) {
  m_findings = findings;
  publish_gauges();
}

void RampMetrics::publish_gauges() {
  using report::MetricType;
  report::MetricTable t({{"run_id", m_run_id}});
  t.single("openloop_ramp_step", MetricType::gauge,
           "The step being run (1-based, in the order steps run; its series carry step=\"N\")",
           static_cast<double>(m_judged + 1));
  t.single("openloop_ramp_step_rate", MetricType::gauge,
           "The offered rate of the step being run (requests/s)", m_current_rate);
  t.single("openloop_ramp_steps_judged", MetricType::gauge, "Steps judged so far",
           static_cast<double>(m_judged));
  t.single("openloop_ramp_finished", MetricType::gauge,
           "1 once the ramp has ended and its findings are known", m_findings ? 1.0 : 0.0);
  if (m_findings && m_findings->capacity) {
    t.single("openloop_ramp_capacity_rps", MetricType::gauge,
             "The ramp's capacity (requests/s): the middle of its bracket, as the results file's findings",
             m_findings->capacity_rps);
    t.single("openloop_ramp_capacity_low_rps", MetricType::gauge,
             "The capacity bracket's low end (requests/s)", m_findings->capacity_low_rps);
    t.single("openloop_ramp_capacity_high_rps", MetricType::gauge,
             "The capacity bracket's high end (requests/s)", m_findings->capacity_high_rps);
  }
  m_server.set_extra(t.take());
}

}  // namespace openloop::procedures
