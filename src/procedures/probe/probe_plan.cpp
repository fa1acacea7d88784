// Validation of the probe's settings and the layout of its phases as one staircase profile.
#include "procedures/probe/probe_plan.h"

#include <cassert>
#include <cmath>

#include <fmt/format.h>

#include "core/units.h"

namespace openloop::procedures {
namespace {

Result<void> whole_seconds(Nanos d, std::string_view flag, bool positive = true) {
  if (d.count() % 1'000'000'000 != 0 || (positive && d.count() <= 0)) {
    return usage_error(fmt::format("{}: {} is not accepted; use a whole number of seconds{}, e.g. 30s", flag,
                                   format_duration(d), positive ? " greater than 0" : ""));
  }
  return {};
}

std::string rate_text(double rate) {
  return fmt::format("{:.12g}/s", rate);
}

std::string ms_text(Nanos d) {
  return fmt::format("{}ms", std::chrono::duration_cast<std::chrono::milliseconds>(d).count());
}

Result<void> check(const ProbeSettings& s) {
  if (!(s.base_rate > 0))
    return usage_error("--base: give the base load, e.g. --base 300/s (greater than 0)");
  OPENLOOP_TRY_VOID(whole_seconds(s.baseline, "--baseline-for"));
  OPENLOOP_TRY_VOID(whole_seconds(s.trigger_for, "--trigger-for"));
  OPENLOOP_TRY_VOID(whole_seconds(s.observe, "--observe-for"));
  OPENLOOP_TRY_VOID(whole_seconds(s.window, "--window"));
  OPENLOOP_TRY_VOID(whole_seconds(s.descend_for, "--descend-for", false));
  if (s.baseline < std::chrono::seconds(2)) {
    return usage_error("--baseline-for: at least 2s (the baseline's steadiness compares its two halves)");
  }
  if (s.window > s.observe) {
    return usage_error(
        fmt::format("--window: {} is longer than --observe-for {}: no window would fit after the trigger",
                    format_duration(s.window), format_duration(s.observe)));
  }
  if (s.descend > 0 && s.descend_for > Nanos(0) && s.window > s.descend_for) {
    return usage_error(fmt::format("--descend-for: {} is shorter than --window {}",
                                   format_duration(s.descend_for), format_duration(s.window)));
  }
  if (!(s.descend_step > 0 && s.descend_step < 1) || s.descend_step * s.descend >= 1.0 - 1e-9) {
    return usage_error(
        fmt::format("--descend-step: {}% × {} steps leaves no load; use a step from 1% to 50% with "
                    "fewer steps",
                    s.descend_step * 100, s.descend));
  }
  if (s.repeats < 1 || s.repeats > 100) return usage_error("--repeats: use 1..100");
  return {};
}

}  // namespace

nlohmann::json RecoveryCriteria::describe() const {
  return {{"goodput_at_least_fraction_of_baseline", min_goodput_fraction},
          {"p99_at_most_ratio_of_baseline", max_p99_ratio},
          {"p99_slack_ms", to_millis(p99_slack)},
          {"in_flight_at_most_ratio_of_baseline", max_in_flight_ratio},
          {"in_flight_slack", in_flight_slack},
          {"amplification_at_most_ratio_of_baseline", max_amplification_ratio}};
}

std::string Phase::name() const {
  switch (kind) {
    case Kind::baseline:
      return "baseline";
    case Kind::trigger:
      return "trigger";
    case Kind::observe:
      return "observe";
    case Kind::descend:
      return fmt::format("descend {}", step);
  }
  return "?";
}

const Phase& ProbePlan::phase(Phase::Kind kind) const {
  for (const Phase& p : phases) {
    if (p.kind == kind) return p;
  }
  assert(false && "every plan has a baseline, a trigger and an observe phase");
  return phases.front();
}

std::vector<std::pair<double, double>> ProbePlan::check_windows() const {
  std::vector<std::pair<double, double>> out;
  for (const Phase& p : phases) out.emplace_back(to_seconds(p.start), to_seconds(p.end()));
  return out;
}

std::string ProbePlan::stages_text() const {
  const ProbeSettings& s = settings;
  // A leading zero-length step: the profile would otherwise ramp up from 0 during the warm-up.
  std::string text = fmt::format("0s:{}", rate_text(s.base_rate));
  if (s.warmup.count() > 0) text += fmt::format(",{}:{}", ms_text(s.warmup), rate_text(s.base_rate));
  for (const Phase& p : phases) text += fmt::format(",0s:{0},{1}:{0}", rate_text(p.rate), ms_text(p.length));
  return text;
}

nlohmann::json ProbePlan::describe() const {
  const ProbeSettings& s = settings;
  nlohmann::json phases_json = nlohmann::json::array();
  for (const Phase& p : phases) {
    phases_json.push_back({{"name", p.name()},
                           {"rate_rps", p.rate},
                           {"start_s", to_seconds(p.start)},
                           {"length_s", to_seconds(p.length)}});
  }
  return {{"base_rps", s.base_rate},
          {"trigger", s.trigger.text},
          {"trigger_for_s", to_seconds(s.trigger_for)},
          {"warmup_s", to_seconds(s.warmup)},
          {"baseline_for_s", to_seconds(s.baseline)},
          {"observe_for_s", to_seconds(s.observe)},
          {"window_s", to_seconds(s.window)},
          {"descend", s.descend},
          {"descend_step", s.descend_step},
          {"descend_for_s", to_seconds(s.descend_for)},
          {"repeats", s.repeats},
          {"criteria", s.criteria.describe()},
          {"phases", phases_json}};
}

Result<ProbePlan> make_probe_plan(ProbeSettings s) {
  if (s.trigger.kind == Trigger::Kind::stall && s.trigger.length.count() > 0)
    s.trigger_for = s.trigger.length;
  if (s.descend_for.count() == 0) s.descend_for = 2 * s.window;
  OPENLOOP_TRY_VOID(check(s));
  ProbePlan plan;
  plan.settings = s;
  Nanos at{0};
  const auto add = [&](Phase::Kind kind, unsigned step, double rate, Nanos length) {
    plan.phases.push_back(Phase{kind, step, rate, at, length});
    at += length;
  };
  add(Phase::Kind::baseline, 0, s.base_rate, s.baseline);
  add(Phase::Kind::trigger, 0, s.trigger.kind == Trigger::Kind::load ? s.trigger.rate : s.base_rate,
      s.trigger_for);
  add(Phase::Kind::observe, 0, s.base_rate, s.observe);
  for (unsigned k = 1; k <= s.descend; ++k) {
    add(Phase::Kind::descend, k, s.base_rate * (1.0 - s.descend_step * k), s.descend_for);
  }
  plan.measured = at;
  return plan;
}

}  // namespace openloop::procedures
