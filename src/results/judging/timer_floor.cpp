// The timer floor in a run's environment.
#include "results/judging/timer_floor.h"

namespace openloop::results {

namespace {
constexpr const char* k_given = "OPENLOOP_TIMER_FLOOR_US";
}  // namespace

void set_timer_floor(RunInfo& info, const TimerFloor& f) {
  if (f.samples == 0) return;
  if (!info.environment.is_object()) info.environment = nlohmann::json::object();
  info.environment["timer_floor"] = {{"samples", f.samples}, {"gap_us", f.gap_us},
                                     {"p50_us", f.p50_us},   {"p99_us", f.p99_us},
                                     {"max_us", f.max_us},   {"source", f.given ? k_given : "measured"},
                                     {"spin_lead_us", f.spin_lead_us},
                                     {"spin_budget", f.spin_budget},
                                     {"spin_budget_low", f.spin_budget_low},
                                     {"spin_spent", f.spin_spent}};
  if (f.run_samples > 0) {
    info.environment["timer_floor"]["during_run"] = {
        {"samples", f.run_samples}, {"p50_us", f.run_p50_us}, {"p99_us", f.run_p99_us}, {"max_us", f.run_max_us}};
  }
}

void drop_run_timer_floor(RunInfo& info) {
  if (!info.environment.is_object()) return;
  const auto it = info.environment.find("timer_floor");
  if (it == info.environment.end() || !it->is_object()) return;
  // What the workers did over the whole run: a window has no figure of its own (its budget reads as chosen).
  for (const char* key : {"during_run", "spin_budget_low", "spin_spent"}) it->erase(key);
}

TimerFloor timer_floor_of(const RunInfo& info) {
  TimerFloor f;
  if (!info.environment.is_object()) return f;
  const auto it = info.environment.find("timer_floor");
  if (it == info.environment.end() || !it->is_object()) return f;
  const auto number_in = [](const nlohmann::json& o, const char* key, double& into) {
    const auto v = o.find(key);
    if (v == o.end() || !v->is_number()) return false;
    into = v->get<double>();
    return true;
  };
  const auto number = [&](const char* key, double& into) { return number_in(*it, key, into); };
  double samples = 0;
  if (!number("samples", samples) || !(samples >= 1) || !number("gap_us", f.gap_us) ||
      !number("p50_us", f.p50_us) || !number("p99_us", f.p99_us) || !number("max_us", f.max_us))
    return TimerFloor{};
  number("spin_lead_us", f.spin_lead_us);
  number("spin_budget", f.spin_budget);
  // Files written before the budget could scale down: it stayed where it was chosen.
  if (!number("spin_budget_low", f.spin_budget_low)) f.spin_budget_low = f.spin_budget;
  number("spin_spent", f.spin_spent);
  if (const auto s = it->find("source"); s != it->end()) f.given = *s == k_given;
  f.samples = static_cast<std::uint64_t>(samples);
  if (const auto d = it->find("during_run"); d != it->end() && d->is_object()) {
    double n = 0;
    if (number_in(*d, "samples", n) && n >= 1 && number_in(*d, "p50_us", f.run_p50_us) &&
        number_in(*d, "p99_us", f.run_p99_us) && number_in(*d, "max_us", f.run_max_us)) {
      f.run_samples = static_cast<std::uint64_t>(n);
    } else {
      f.run_p50_us = f.run_p99_us = f.run_max_us = 0;
    }
  }
  return f;
}

}  // namespace openloop::results
