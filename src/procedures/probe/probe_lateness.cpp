// Send lateness per compared phase and the robustness of a verdict to it.
#include "procedures/probe/probe_lateness.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/units.h"
#include "report/text_format.h"

namespace openloop::procedures {
namespace {

using report::format_latency;

std::string joined(const std::vector<std::string>& parts) {
  std::string text;
  for (const auto& p : parts) text += (text.empty() ? "" : "; ") + p;
  return text;
}

RecoveryCriteria shifted(const RecoveryCriteria& c, Nanos allowance) {
  RecoveryCriteria out = c;
  out.lateness_allowance = allowance;
  return out;
}

// The first window of `phase` meeting every criterion of `c`.
std::optional<WindowJudgement> healthy_in(const ProbePlan& plan, const std::vector<Sample>& samples,
                                          const ProbeOutcome& out, const Phase& phase,
                                          const RecoveryCriteria& c) {
  const ProbeSettings& s = plan.settings;
  return first_recovered(samples, phase, s.window, out.baseline.stats, s.base_rate, c);
}

// Where a recovery is searched, in order: observe, then each descending step.
std::vector<const Phase*> recovery_phases(const ProbePlan& plan) {
  std::vector<const Phase*> out;
  for (const Phase& p : plan.phases) {
    if (p.kind == Phase::Kind::observe || p.kind == Phase::Kind::descend) out.push_back(&p);
  }
  return out;
}

// The phase a window lies in.
const Phase* phase_of(const ProbePlan& plan, const WindowJudgement& w) {
  for (const Phase* p : recovery_phases(plan)) {
    if (w.start_s >= to_seconds(p->start) - 1e-6 && w.end_s <= to_seconds(p->end()) + 1e-6) return p;
  }
  return nullptr;
}

struct Healthy {
  const Phase* phase;
  WindowJudgement window;
};

// The first healthy window under `c` in the order the verdict searches (observe, then each step).
std::optional<Healthy> first_healthy(const ProbePlan& plan, const std::vector<Sample>& samples,
                                     const ProbeOutcome& out, const RecoveryCriteria& c) {
  for (const Phase* p : recovery_phases(plan)) {
    if (auto w = healthy_in(plan, samples, out, *p, c)) return Healthy{p, std::move(*w)};
  }
  return std::nullopt;
}

}  // namespace

Lateness lateness_of(const std::vector<PhaseRow>& rows) {
  Lateness late;
  for (const PhaseRow& row : rows) {
    const Phase& p = row.phase;
    if (p.kind == Phase::Kind::trigger || row.skipped || row.stats.intended == 0) continue;
    late.worst_p99_ns = std::max(late.worst_p99_ns, row.stats.lateness_p99_ns);
    // The run verdict's bound, per phase at its own rate: max(1 ms, 10 % of the mean gap between arrivals).
    const double bound_ns = std::max(1e6, 0.1e9 / p.rate);
    if (static_cast<double>(row.stats.lateness_p99_ns) > bound_ns) {
      late.over_bound.push_back(fmt::format("send-lateness p99 {} > {} during {}",
                                            format_latency(row.stats.lateness_p99_ns),
                                            format_latency(static_cast<std::int64_t>(bound_ns)), p.name()));
    }
  }
  return late;
}

std::optional<std::string> lateness_decides(const ProbePlan& plan, const std::vector<Sample>& samples,
                                            const ProbeOutcome& out, const Lateness& late, double timeout_s) {
  if (late.over_bound.empty()) return std::nullopt;
  const Nanos lateness(late.worst_p99_ns);
  const std::string why = fmt::format("the generator's send lateness could have decided the verdict ({})",
                                      joined(late.over_bound));
  if (timeout_s > 0 && to_seconds(lateness) >= 0.1 * timeout_s) {
    return fmt::format("{}: {} is 10% or more of the {} timeout, so late sends turn into timeouts", why,
                       format_latency(late.worst_p99_ns), format_duration(from_seconds(timeout_s)));
  }
  const RecoveryCriteria& c = plan.settings.criteria;
  const Phase* recovered_in = out.healthy_window ? phase_of(plan, *out.healthy_window) : nullptr;
  // Response times L longer are the bounds lowered by L; L shorter, raised by L.
  if (recovered_in != nullptr && !healthy_in(plan, samples, out, *recovered_in, shifted(c, -lateness))) {
    return fmt::format("{}: with every response time {} longer, {} would have no healthy window", why,
                       format_latency(late.worst_p99_ns), recovered_in->name());
  }
  // The bounds only widen, so the first healthy window comes no later than the one found: in an earlier phase
  // or in the same one.
  const auto loose = first_healthy(plan, samples, out, shifted(c, lateness));
  if (loose && loose->phase != recovered_in) {
    return fmt::format(
        "{}: with every response time {} shorter, {} would have a healthy window ({:.0f}s–{:.0f}s)", why,
        format_latency(late.worst_p99_ns), loose->phase->name(), loose->window.start_s, loose->window.end_s);
  }
  return std::nullopt;
}

std::string lateness_note(const ProbePlan& plan, const std::vector<Sample>& samples, const ProbeOutcome& out,
                          const Lateness& late) {
  std::string note = fmt::format(
      "the generator sent late ({}); the verdict is unchanged if every response time shifts by up "
      "to ±{} (the probe's lateness rule)",
      joined(late.over_bound), format_latency(late.worst_p99_ns));
  if (out.verdict != ProbeVerdict::recovered || !out.healthy_window || !out.recovery_s) return note;
  const Phase& observe = plan.phase(Phase::Kind::observe);
  const auto later =
      healthy_in(plan, samples, out, observe, shifted(plan.settings.criteria, -Nanos(late.worst_p99_ns)));
  if (later && later->start_s > out.healthy_window->start_s) {
    note += fmt::format("; the recovery time would read {:.0f}s instead of {:.0f}s",
                        *out.recovery_s + later->start_s - out.healthy_window->start_s, *out.recovery_s);
  }
  return note;
}

}  // namespace openloop::procedures
