// Capacity, knee and collapse from judged steps; the stop rule of a running ramp and the bisection of
// --refine.
#include "procedures/ramp/ramp_analysis.h"

#include <algorithm>

#include <fmt/format.h>

#include "procedures/ramp/ramp_knee.h"

namespace openloop::procedures {
namespace {

double offered(const StepRecord& s) {
  return s.analysis.window.offered_rps;
}
bool valid(const StepRecord& s) {
  return s.analysis.state != StepState::invalid;
}

// Valid steps by increasing offered rate (one per rate: the later one wins), for the knee.
std::vector<std::size_t> by_offered(const std::vector<StepRecord>& steps) {
  std::vector<std::size_t> idx;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (valid(steps[i])) idx.push_back(i);
  }
  std::stable_sort(idx.begin(), idx.end(),
                   [&](std::size_t a, std::size_t b) { return offered(steps[a]) < offered(steps[b]); });
  std::vector<std::size_t> out;
  for (const std::size_t i : idx) {
    if (!out.empty() && offered(steps[out.back()]) == offered(steps[i])) {
      out.back() = i;
    } else {
      out.push_back(i);
    }
  }
  return out;
}

// The bounds of a step's p99 as its 95 % confidence interval gives them (the value itself where too few
// samples bound that side).
double p99_low(const StepRecord& s) {
  const stats::QuantileEstimate& q = s.analysis.latency[2];
  return static_cast<double>(q.low.value_or(q.value));
}
double p99_high(const StepRecord& s) {
  const stats::QuantileEstimate& q = s.analysis.latency[2];
  return static_cast<double>(q.high.value_or(q.value));
}

// Kneedle finds the bend of any curve, noise included: one slow blip on a flat line reads as a knee. A knee
// is real only when p99 rises beyond the confidence intervals and stays there: every valid step above the
// knee has its p99 interval wholly above every interval at or below the knee.
bool p99_rise_confirmed(const std::vector<StepRecord>& steps, const std::vector<std::size_t>& idx,
                        std::size_t k) {
  if (k + 1 >= idx.size()) return false;
  double flat = 0;
  for (std::size_t i = 0; i <= k; ++i) flat = std::max(flat, p99_high(steps[idx[i]]));
  for (std::size_t j = k + 1; j < idx.size(); ++j) {
    if (p99_low(steps[idx[j]]) <= flat) return false;
  }
  return true;
}

// Kneedle on both curves. Goodput is anchored at the origin (no load, no goodput): without it a collapse, the
// lowest goodput of all, would set the bottom of the normalised scale and the rising part would not read as a
// curve at all.
void find_knees(const std::vector<StepRecord>& steps, RampFindings& f) {
  const std::vector<std::size_t> idx = by_offered(steps);
  std::vector<double> x, p99, x0{0.0}, goodput{0.0};
  for (const std::size_t i : idx) {
    x.push_back(offered(steps[i]));
    p99.push_back(static_cast<double>(steps[i].analysis.latency[2].value));
    x0.push_back(offered(steps[i]));
    goodput.push_back(steps[i].analysis.goodput_rps);
  }
  if (auto k = find_knee(x, p99, KneeShape::convex, KneeDirection::increasing);
      k && p99_rise_confirmed(steps, idx, *k)) {
    f.knee_latency = idx[*k];
  }
  if (x0.size() > 1 && x0[1] > 0) {
    if (auto k = find_knee(x0, goodput, KneeShape::concave, KneeDirection::increasing))
      f.knee_goodput = idx[*k - 1];
  }
}

void find_capacity(const std::vector<StepRecord>& steps, RampFindings& f) {
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (steps[i].passes() && (!f.capacity || offered(steps[i]) > offered(steps[*f.capacity]))) f.capacity = i;
  }
  if (!f.capacity) return;
  const double lo = offered(steps[*f.capacity]);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (!steps[i].fails()) continue;
    if (offered(steps[i]) < lo) f.failed_below.push_back(i);
    if (offered(steps[i]) > lo && (!f.ceiling || offered(steps[i]) < offered(steps[*f.ceiling])))
      f.ceiling = i;
  }
  f.capacity_low_rps = lo;
  f.capacity_high_rps = f.ceiling ? offered(steps[*f.ceiling]) : lo;
  f.bounded = f.ceiling.has_value();
  // The highest rate a step showed the target sustaining, not the bracket's middle: a midpoint is a rate no
  // step ran and may lie above the true limit (a limit_req of 400/s bracketed by 390.6 and 488.3 read "439/s").
  f.capacity_rps = lo;
  f.capacity_tolerance = lo > 0 ? (f.capacity_high_rps - f.capacity_low_rps) / lo : 0;
}

// Collapse: in the order the planned steps ran (offered rising), goodput ≥ 10 % below the peak of the steps
// before it, confirmed by the next valid planned step.
void find_collapse(const std::vector<StepRecord>& steps, RampFindings& f) {
  std::optional<std::size_t> peak;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (steps[i].refinement || !valid(steps[i])) continue;
    const double g = steps[i].analysis.goodput_rps;
    const bool below = peak && offered(steps[i]) > offered(steps[*peak]) &&
                       g <= (1 - k_collapse_drop) * steps[*peak].analysis.goodput_rps;
    if (f.collapse) {
      if (below) f.collapse_confirmed_by = i;
      if (below) break;
      f.collapse.reset();  // one step's dip that the next step did not repeat: not a collapse
    } else if (below) {
      f.collapse = i;
      continue;
    }
    if (!peak || g > steps[*peak].analysis.goodput_rps) peak = i;
  }
  if (f.collapse && !f.collapse_confirmed_by) f.collapse.reset();
  f.peak = peak;
}

// Rates as people read them in a sentence: whole numbers from 100/s up.
std::string rate(double r) {
  return r >= 100 ? fmt::format("{:.0f}/s", r) : fmt::format("{:.3g}/s", r);
}

std::string capacity_clause(const std::vector<StepRecord>& steps, const RampFindings& f) {
  if (!f.capacity) {
    double lowest = 0;
    for (const auto& s : steps) {
      if (valid(s) && (lowest == 0 || offered(s) < lowest)) lowest = offered(s);
    }
    return lowest > 0 ? fmt::format(
                            "No step met every SLO steadily: capacity is below {} (the lowest valid step); "
                            "start lower with --from",
                            rate(lowest))
                      : std::string(
                            "No step was valid: the generator could not apply any step's load, so the ramp "
                            "found nothing about the target");
  }
  if (!f.bounded) {
    const bool invalid_above = std::any_of(steps.begin(), steps.end(), [&](const StepRecord& s) {
      return !valid(s) && offered(s) > f.capacity_low_rps;
    });
    return fmt::format(
        "Capacity is at least {}: no valid step above it failed ({})", rate(f.capacity_low_rps),
        invalid_above ? "the steps above were INVALID: the generator could not apply their load"
                      : "raise --to or --max-steps to find the limit");
  }
  return fmt::format(
      "Capacity {}: the highest step that met every SLO steadily; the first that did not, {}, is {:.1f}% above "
      "it (the limit lies between)",
      rate(f.capacity_rps), rate(f.capacity_high_rps), 100 * f.capacity_tolerance);
}

std::string knee_clause(const std::vector<StepRecord>& steps, const RampFindings& f) {
  double top = 0;
  for (const auto& s : steps) {
    if (valid(s)) top = std::max(top, offered(s));
  }
  if (top == 0) return "no knee (no valid step)";
  const auto at = [&](const char* curve, const std::optional<std::size_t>& k) {
    return k ? fmt::format("{} at {}", curve, rate(offered(steps[*k])))
             : fmt::format("no knee in {} up to {}", curve, rate(top));
  };
  return fmt::format("knee (Kneedle): {}, {}", at("p99", f.knee_latency), at("goodput", f.knee_goodput));
}

}  // namespace

void judge_slos(StepRecord& step, const std::vector<results::Slo>& slos) {
  step.slos = results::evaluate_slos(slos, step.analysis.results);
  step.slos_met = results::all_met(step.slos);
  step.analysis.results.slos = step.slos;
}

RampFindings analyse_ramp(const std::vector<StepRecord>& steps) {
  RampFindings f;
  find_capacity(steps, f);
  find_knees(steps, f);
  find_collapse(steps, f);
  return f;
}

Result<StopAt> parse_stop_at(std::string_view text, std::string_view what) {
  if (text == "collapse") return StopAt::collapse;
  if (text == "slo") return StopAt::slo;
  if (text == "never") return StopAt::never;
  return usage_error(fmt::format("{}: \"{}\" is not accepted; use collapse, slo or never", what, text));
}

const char* to_string(StopAt s) {
  switch (s) {
    case StopAt::collapse:
      return "collapse";
    case StopAt::slo:
      return "slo";
    case StopAt::never:
      return "never";
  }
  return "?";
}

std::string stop_reason(const std::vector<StepRecord>& steps, StopAt at) {
  if (at == StopAt::never) return {};
  std::vector<const StepRecord*> planned;
  for (const auto& s : steps) {
    if (!s.refinement) planned.push_back(&s);
  }
  if (planned.empty()) return {};
  const std::size_t n = planned.size();
  if (n >= 2 && !valid(*planned[n - 1]) && !valid(*planned[n - 2])) {
    return fmt::format("two steps in a row were INVALID ({} and {}): the generator cannot apply this load",
                       rate(offered(*planned[n - 2])), rate(offered(*planned[n - 1])));
  }
  RampFindings f;
  find_collapse(steps, f);  // planned steps only
  if (f.collapse_confirmed_by) {
    return fmt::format("collapse at {} (goodput {} vs a peak of {} at {}), confirmed at {}",
                       rate(offered(steps[*f.collapse])), rate(steps[*f.collapse].analysis.goodput_rps),
                       rate(steps[*f.peak].analysis.goodput_rps), rate(offered(steps[*f.peak])),
                       rate(offered(steps[*f.collapse_confirmed_by])));
  }
  if (at == StopAt::slo && planned.back()->fails()) {
    return fmt::format(
        "--stop-at slo: the step at {} did not pass ({})", rate(offered(*planned.back())),
        planned.back()->analysis.state == StepState::steady ? "an SLO was not met" : "not steady");
  }
  return {};
}

std::optional<double> next_refinement(const std::vector<StepRecord>& steps, double tolerance) {
  if (!steps.empty() && steps.back().refinement && !valid(steps.back())) return std::nullopt;
  const RampFindings f = analyse_ramp(steps);
  if (!f.bounded || f.capacity_tolerance <= tolerance) return std::nullopt;
  return (f.capacity_low_rps + f.capacity_high_rps) / 2;
}

std::string findings_sentence(const std::vector<StepRecord>& steps, const RampFindings& f) {
  std::string s = capacity_clause(steps, f) + "; " + knee_clause(steps, f);
  if (f.collapse && f.peak) {
    const auto& c = steps[*f.collapse].analysis;
    const double peak = steps[*f.peak].analysis.goodput_rps;
    s += fmt::format("; collapse from {}: goodput {} ({:.0f}% below its peak {} at {}) while completing {}",
                     rate(c.window.offered_rps), rate(c.goodput_rps), 100 * (1 - c.goodput_rps / peak),
                     rate(peak), rate(offered(steps[*f.peak])), rate(c.completed_rps));
  }
  return s + ".";
}

}  // namespace openloop::procedures
