// The probe's live metrics: each phase's window sliced from the run's results so far.
#include "procedures/probe/probe_metrics.h"

#include "core/units.h"
#include "results/merging/slice_run.h"

namespace openloop::procedures {

using Verdict = report::MetricsState::Verdict;

ProbeMetrics::ProbeMetrics(report::MetricsServer& server, const procedures::ProbePlan& plan, std::string run_id,
                           std::vector<std::string> request_names)
    : m_server(server), m_plan(plan), m_run_id(std::move(run_id)), m_names(std::move(request_names)) {
  publish_gauges();
}

void ProbeMetrics::start_run(unsigned repeat) {
  m_repeat = repeat;
  m_done_phases = 0;
  m_phase.clear();
  publish_gauges();
}

void ProbeMetrics::progress(const results::RunResults& so_far) {
  publish(so_far, false);
  publish_gauges();
}

void ProbeMetrics::end_run(const results::RunResults& results, const procedures::ProbeOutcome& outcome) {
  m_done_phases = 0;
  publish(results, true);
  m_outcomes.emplace_back(m_repeat, outcome.verdict);
  publish_gauges();
}

void ProbeMetrics::publish(const results::RunResults& run, bool final) {
  const double end_s =
      run.intervals.empty() ? 0.0 : run.intervals.back().start_s + run.intervals.back().length_s;
  // Phases already complete at an earlier report keep their series: each report slices only the phases still
  // open (a phase's intervals are decoded once a second while it lasts, never again after).
  for (std::size_t i = m_done_phases; i < m_plan.phases.size(); ++i) {
    const procedures::Phase& phase = m_plan.phases[i];
    const double from_s = to_seconds(phase.start), to_s = to_seconds(phase.end());
    if (from_s >= end_s) break;
    results::GoodputDeadline goodput{Nanos(0), Nanos(0)};
    auto window = results::slice_run(run, from_s, to_s, goodput);
    if (!window || window->intervals.empty()) continue;
    auto [at, added] = m_parts.try_emplace({m_repeat, i}, 0);
    if (added) {
      report::MetricsContext c{m_run_id, "", m_names, phase.rate, {}, {}};
      c.extra_labels = {{"repeat", std::to_string(m_repeat)}, {"phase", phase.name()}};
      at->second = m_server.add_part(std::move(c));
    }
    if (final) {
      m_server.update(*window, run.verdict.valid ? Verdict::valid : Verdict::invalid, at->second);
    } else {
      m_server.update(*window, false, at->second);
    }
    m_phase = phase.name();
    if (!final && to_s <= end_s + 1e-6) m_done_phases = i + 1;
  }
}

void ProbeMetrics::publish_gauges() {
  using report::MetricType;
  report::MetricTable t({{"run_id", m_run_id}});
  t.single("openloop_probe_repeat", MetricType::gauge, "The probe's run being made (1-based; 0: none yet)",
           m_repeat);
  t.family("openloop_probe_phase", MetricType::gauge,
           "The phase with the latest finalized interval: 1 for it, 0 for the others");
  for (const procedures::Phase& phase : m_plan.phases)
    t.value(phase.name() == m_phase ? 1.0 : 0.0, {{"phase", phase.name()}});
  t.single("openloop_probe_runs_ended", MetricType::gauge,
           "Runs of the probe that have ended and were judged", static_cast<double>(m_outcomes.size()));
  if (!m_outcomes.empty()) {
    t.family("openloop_probe_verdict", MetricType::gauge,
             "Each ended run's verdict: 1 for its state, 0 for the others");
    for (const auto& [repeat, verdict] : m_outcomes) {
      for (auto v : {procedures::ProbeVerdict::recovered, procedures::ProbeVerdict::recovered_at_lower_load,
                     procedures::ProbeVerdict::metastable, procedures::ProbeVerdict::inconclusive}) {
        t.value(v == verdict ? 1.0 : 0.0, {{"repeat", std::to_string(repeat)}, {"state", to_string(v)}});
      }
    }
  }
  m_server.set_extra(t.take());
}

}  // namespace openloop::procedures
