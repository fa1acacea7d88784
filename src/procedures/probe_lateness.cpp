// Send lateness per compared phase and the robustness of a verdict to it.
#include "procedures/probe_lateness.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/units.h"

namespace openloop::procedures {
namespace {

std::string ms(std::int64_t ns) {
  return format_duration(Nanos(ns));
}

// Does the first healthy window still pass with the bounds tightened by the lateness?
bool recovery_holds(const ProbePlan& plan, const std::vector<Sample>& samples, const ProbeOutcome& out,
                    Nanos lateness) {
  if (!out.healthy_window) return true;
  RecoveryCriteria strict = plan.settings.criteria;
  strict.lateness_allowance = -lateness;
  const auto& w = *out.healthy_window;
  const auto span = span_of(samples, from_seconds(w.start_s), from_seconds(w.end_s));
  return judge_window(span, w.rate, out.baseline.stats, plan.settings.base_rate, strict).met;
}

// Is there still no healthy window at the base load with the bounds loosened by the lateness?
bool failure_holds(const ProbePlan& plan, const std::vector<Sample>& samples, const ProbeOutcome& out,
                   Nanos lateness) {
  RecoveryCriteria lenient = plan.settings.criteria;
  lenient.lateness_allowance = lateness;
  const ProbeSettings& s = plan.settings;
  return !first_recovered(samples, plan.phase(Phase::Kind::observe), s.window, out.baseline.stats,
                          s.base_rate, lenient);
}

}  // namespace

Lateness lateness_of(const ProbePlan& plan, const std::vector<Sample>& samples) {
  Lateness late;
  for (const Phase& p : plan.phases) {
    if (p.kind == Phase::Kind::trigger) continue;
    const Stats s = stats_of(span_of(samples, p.start, p.end()));
    if (s.intended == 0) continue;
    late.worst_p99_ns = std::max(late.worst_p99_ns, s.lateness_p99_ns);
    // The run verdict's bound, per phase at its own rate: max(1 ms, 10 % of the mean gap between arrivals).
    const double bound_ns = std::max(1e6, 0.1e9 / p.rate);
    if (static_cast<double>(s.lateness_p99_ns) > bound_ns) {
      late.problems.push_back(fmt::format("send-lateness p99 {} > {} during {}", ms(s.lateness_p99_ns),
                                          ms(static_cast<std::int64_t>(bound_ns)), p.name()));
    }
  }
  return late;
}

std::optional<std::string> lateness_decides(const ProbePlan& plan, const std::vector<Sample>& samples,
                                            const ProbeOutcome& out, const Lateness& late, double timeout_s) {
  if (late.problems.empty()) return std::nullopt;
  const Nanos lateness(late.worst_p99_ns);
  if (timeout_s > 0 && to_seconds(lateness) >= 0.1 * timeout_s) {
    return fmt::format("the generator sent late by as much as {}, 10% or more of the {} timeout",
                       ms(late.worst_p99_ns), format_duration(from_seconds(timeout_s)));
  }
  const bool holds = out.verdict == ProbeVerdict::recovered ? recovery_holds(plan, samples, out, lateness)
                                                            : failure_holds(plan, samples, out, lateness);
  if (holds) return std::nullopt;
  std::string problems;
  for (const auto& p : late.problems) problems += (problems.empty() ? "" : "; ") + p;
  return fmt::format("the generator sent late ({}), by as much as the margin that decided the verdict",
                     problems);
}

}  // namespace openloop::procedures
