// Planned rates and the run plans of a ramp: a staircase of zero-length steps, or one run per step.
#include "procedures/ramp/ramp_plan.h"

#include <algorithm>
#include <cmath>

namespace openloop::procedures {

std::vector<double> planned_rates(const RampSettings& s) {
  std::vector<double> rates;
  double r = s.from_rps;
  while (rates.size() < s.max_steps && (s.to_rps <= 0 || r <= s.to_rps * (1 + 1e-9))) {
    rates.push_back(r);
    const double next = s.step_mult > 0 ? r * s.step_mult : r + s.step_add;
    if (!(next > r) || !std::isfinite(next)) break;
    r = next;
  }
  return rates;
}

workload::RateProfile staircase(const std::vector<double>& rates, Nanos warmup, Nanos hold) {
  std::vector<workload::Stage> stages;
  for (const double r : rates) {
    stages.push_back({Nanos(0), r});
    stages.push_back({warmup + hold, r});
  }
  return workload::RateProfile::from_stages(std::move(stages), rates.front());
}

StepWindow staircase_window(std::size_t k, double rate, Nanos warmup, Nanos hold) {
  const double step_s = to_seconds(warmup + hold);
  StepWindow w;
  w.offered_rps = rate;
  w.from_s = static_cast<double>(k) * step_s + to_seconds(warmup);
  w.to_s = static_cast<double>(k + 1) * step_s;
  return w;
}

engine::RunPlan staircase_plan(const engine::RunPlan& base, const std::vector<double>& rates,
                               const RampSettings& s) {
  engine::RunPlan plan = base;
  plan.profile = staircase(rates, s.warmup, s.hold);
  plan.warmup = Nanos(0);
  plan.duration = plan.profile.duration();
  plan.start_offset = Nanos(0);
  plan.check_windows.clear();
  for (std::size_t k = 0; k < rates.size(); ++k) {
    const StepWindow w = staircase_window(k, rates[k], s.warmup, s.hold);
    plan.check_windows.emplace_back(w.from_s, w.to_s);
  }
  return plan;
}

engine::RunPlan single_step_plan(const engine::RunPlan& base, double rate, Nanos silence,
                                 const RampSettings& s) {
  engine::RunPlan plan = base;
  std::vector<workload::Stage> stages;
  if (silence.count() > 0) stages.push_back({silence, 0.0});
  stages.push_back({Nanos(0), rate});
  stages.push_back({s.warmup + longest_hold(s), rate});
  plan.profile = workload::RateProfile::from_stages(std::move(stages), silence.count() > 0 ? 0.0 : rate);
  plan.warmup = Nanos(0);
  plan.duration = plan.profile.duration();
  plan.start_offset = Nanos(0);
  const StepWindow w = single_step_window(rate, silence, s);
  plan.check_windows = {{w.from_s, w.to_s}};
  return plan;
}

StepWindow single_step_window(double rate, Nanos silence, const RampSettings& s) {
  StepWindow w;
  w.offered_rps = rate;
  w.from_s = to_seconds(silence + s.warmup);
  w.to_s = to_seconds(silence + s.warmup + longest_hold(s));
  return w;
}

Nanos longest_hold(const RampSettings& s) {
  return s.step_until.empty() ? s.hold : std::max(s.hold, s.step_max_hold);
}

}  // namespace openloop::procedures
