// A flow's steps read from a run's plan and matched to its per-request breakdown.
#include "results/flow_steps.h"

#include <algorithm>

#include "results/judging/slo.h"
#include "results/run_results.h"

namespace openloop::results {

std::vector<FlowStep> flow_steps(const RunResults& r) {
  std::vector<FlowStep> out;
  // Several scenarios combined keep the first one's plan: their steps are each scenario's, not the whole's.
  if (!r.info.plan.is_object() || r.scenarios.size() > 1) return out;
  const auto steps = r.info.plan.find("steps");
  if (steps == r.info.plan.end() || !steps->is_array()) return out;
  const std::vector<std::string>& names = r.info.request_names;
  for (const auto& s : *steps) {
    FlowStep step;
    step.step = out.size() + 1;
    step.request = s.is_object() ? s.value("request", std::string()) : std::string();
    const auto named = std::find(names.begin(), names.end(), step.request);
    const auto index = static_cast<std::size_t>(named - names.begin());
    if (named != names.end() && index < r.by_request.size()) {
      step.counters = &r.by_request[index].counters;
      step.response_time = &r.by_request[index].response_time;
    } else if (named != names.end() && r.by_request.empty() && names.size() == 1) {
      step.counters = &r.totals;  // one request: the run's totals are its
      step.response_time = &r.response_time;
    }
    step.failures = r.flows.steps[std::min(out.size(), r.flows.steps.size() - 1)];
    out.push_back(std::move(step));
  }
  for (FlowStep& a : out) {
    a.shared =
        std::count_if(out.begin(), out.end(), [&](const FlowStep& b) { return b.request == a.request; }) > 1;
  }
  return out;
}

bool slo_names_the_flow(const Slo& slo, const std::vector<std::string>& request_names) {
  return slo.request == k_flow_slo &&
         std::find(request_names.begin(), request_names.end(), k_flow_slo) == request_names.end();
}

}  // namespace openloop::results
