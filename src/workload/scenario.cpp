// Scenario and plan helpers: request mix sampling, configured rates, and the human description `validate`
// prints.
#include "workload/scenario.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include <fmt/format.h>

#include "core/units.h"
#include "workload/replay_plan.h"
#include "workload/session_data.h"

namespace openloop::workload {
namespace {

constexpr std::string_view k_closed_caveat =
    "CLOSED: each user waits for its response before sending again, so the load falls when the target slows "
    "and "
    "the stall's slowest requests are never sent (coordinated omission); latency is service time. Use it "
    "only "
    "for a fixed population of callers.";

std::string stages_text(const RateProfile& profile) {
  std::string out;
  for (const Stage& s : profile.stages()) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{}:{}", format_duration(s.duration), format_rate(s.target_rate));
  }
  return out;
}

// "200/s requests, poisson arrivals, ~12000 in all" or "requests by stages 30s:100/s, 1m0s:0/s (from 10/s;
// peak 100/s), constant arrivals, ~1800 in all".
std::string arrivals_text(const ScenarioPlan& s, std::string_view what) {
  const RateProfile& p = s.profile;
  const bool flat = p.stages().size() == 1 && p.start_rate() == p.stages().front().target_rate;
  const std::string from = p.start_rate() > 0 ? fmt::format("from {}; ", format_rate(p.start_rate())) : "";
  const std::string rate = flat ? fmt::format("{} {}", format_rate(p.max_rate()), what)
                                : fmt::format("{} by stages {} ({}peak {})", what, stages_text(p), from,
                                              format_rate(p.max_rate()));
  return fmt::format("{}, {} arrivals, ~{:.0f} in all", rate, to_string(s.arrival), p.total_expected());
}

// "replay of t.jsonl (jsonl): 1200 records over 59.9s, speed 2, looped every 30.0s, ~2400 in all".
std::string replay_text(const ScenarioPlan& s) {
  const ReplayPlan& r = *s.replay;
  std::string out = fmt::format("replay of {} ({}): {} records over {}, speed {:g}", r.request.input.path,
                                to_string(r.request.input.format), r.counts.records, format_duration(r.span),
                                r.request.options.speed);
  if (r.request.loop) out += fmt::format(", looped every {}", format_duration(r.loop_period()));
  if (r.counts.gaps_compressed > 0)
    out += fmt::format(", {} gaps over {} compressed", r.counts.gaps_compressed,
                       format_duration(r.request.options.max_gap));
  if (r.counts.outside > 0) out += fmt::format(", {} records outside from/to", r.counts.outside);
  return out + fmt::format(", ~{:.0f} in all", s.profile.total_expected());
}

std::string load_text(const ScenarioPlan& s) {
  switch (s.model) {
    case ModelKind::open:
      if (s.replay) return "OPEN, " + replay_text(s);
      return "OPEN, " + arrivals_text(s, "requests");
    case ModelKind::closed:
      return fmt::format("CLOSED, {} users, think {}", s.vus, s.think.to_string());
    case ModelKind::pacing:
      if (s.pacing > Nanos(0)) {
        return fmt::format("PACING, {} users, an iteration at most every {} each ({} configured)", s.vus,
                           format_duration(s.pacing), format_rate(s.configured_rate()));
      }
      return fmt::format("PACING, {} users, iterations at most {} in all", s.vus, format_rate(s.max_rate));
    case ModelKind::sessions: {
      const std::string cap =
          s.max_sessions > 0 ? fmt::format(", at most {} at once", s.max_sessions) : std::string();
      return "SESSIONS (partly open), " + arrivals_text(s, "session starts") + cap;
    }
  }
  return "?";
}

std::string requests_text(const WorkloadPlan& plan, const ScenarioPlan& s) {
  if (s.replay) return "requests: each record's own (method, path, headers, body), sent to the target";
  if (s.steps.empty() && s.mix.entries().size() == 1) {
    return "request: " + plan.requests[s.mix.entries().front().request].name();
  }
  std::string out;
  if (s.steps.empty()) {
    out = "mix:";
    for (std::size_t i = 0; i < s.mix.entries().size(); ++i) {
      out += fmt::format(" {} {:.3g}%", plan.requests[s.mix.entries()[i].request].name(),
                         100.0 * s.mix.share(i));
    }
    return out;
  }
  // Sessions and pacing skip the think after the last step (the session ends; the pacing wait follows).
  const bool last_thinks = s.model == ModelKind::closed;
  out = "steps: ";
  for (std::size_t i = 0; i < s.steps.size(); ++i) {
    const Step& step = s.steps[i];
    if (i > 0) out += " → ";
    out += plan.requests[step.request].name();
    if (!step.think.is_zero() && (last_thinks || i + 1 < s.steps.size())) {
      out += fmt::format(" (think {})", step.think.to_string());
    }
  }
  if (!s.cookies) out += "; no cookie jar (cookies: off)";
  return out;
}

// "login (captures token) → seed_data": a setup or teardown list.
std::string once_text(const WorkloadPlan& plan, const std::vector<Step>& steps) {
  std::string out;
  for (const Step& step : steps) {
    if (!out.empty()) out += " → ";
    out += plan.requests[step.request].name();
    std::string names;
    for (const Capture& c : step.flow.captures) names += (names.empty() ? "" : ", ") + c.as;
    if (!names.empty()) out += fmt::format(" (captures {})", names);
  }
  return out;
}

}  // namespace

std::string_view to_string(ModelKind model) {
  switch (model) {
    case ModelKind::open:
      return "open";
    case ModelKind::closed:
      return "closed";
    case ModelKind::pacing:
      return "pacing";
    case ModelKind::sessions:
      return "sessions";
  }
  return "?";
}

RequestMix::RequestMix(std::vector<Entry> entries) : m_entries(std::move(entries)) {
  for (const Entry& e : m_entries) {
    assert(std::isfinite(e.weight) && e.weight > 0);
    m_total += e.weight;
    m_cumulative.push_back(m_total);
  }
}

std::size_t RequestMix::pick(Rng& rng) const {
  assert(!m_entries.empty());
  if (m_entries.size() == 1) return m_entries.front().request;
  const double x = rng.uniform01() * m_total;
  const auto it = std::upper_bound(m_cumulative.begin(), m_cumulative.end(), x);
  const auto i = std::min(static_cast<std::size_t>(it - m_cumulative.begin()), m_entries.size() - 1);
  return m_entries[i].request;
}

double ScenarioPlan::configured_rate() const {
  switch (model) {
    case ModelKind::open:
    case ModelKind::sessions:
      return profile.max_rate();
    case ModelKind::pacing:
      return pacing > Nanos(0) ? static_cast<double>(vus) / to_seconds(pacing) : max_rate;
    case ModelKind::closed:
      return 0;
  }
  return 0;
}

Rng scenario_rng(const ScenarioPlan& scenario, std::size_t scenario_index, unsigned worker) {
  // Above the arrival streams (0..workers−1) and below the variables' (≥ 2^32): 2^31 + index·2^20 + worker.
  return Rng(scenario.seed,
             (std::uint64_t{1} << 31) + (static_cast<std::uint64_t>(scenario_index) << 20) + worker);
}

std::optional<std::size_t> WorkloadPlan::find_request(std::string_view name) const {
  for (std::size_t i = 0; i < requests.size(); ++i) {
    if (requests[i].name() == name) return i;
  }
  return std::nullopt;
}

Nanos WorkloadPlan::length() const {
  Nanos end{0};
  for (const ScenarioPlan& s : scenarios) end = std::max(end, s.start + s.duration);
  return end;
}

std::string WorkloadPlan::describe() const {
  std::string out =
      fmt::format("{}: target {}, {} request(s), {} scenario(s), {} in all, timeout {}, success {}\n",
                  source.empty() ? "plan" : source, target_text, requests.size(), scenarios.size(),
                  format_duration(length()), format_duration(defaults.timeout), defaults.success.to_string());
  if (!setup.empty()) {
    out += fmt::format("  setup, once before the load (a failure stops the run; its values are read-only to "
                       "every request): {}\n",
                       once_text(*this, setup));
  }
  if (!teardown.empty()) {
    out += fmt::format("  teardown, once after the load (also after an interrupted one): {}\n",
                       once_text(*this, teardown));
  }
  for (const ScenarioPlan& s : scenarios) {
    out += fmt::format("  {}: {}, for {} from {}\n", s.name, load_text(s), format_duration(s.duration),
                       format_duration(s.start));
    out += fmt::format("    {}\n", requests_text(*this, s));
    if (const auto data = find_session_data(variables, s.name))
      out += fmt::format("    data: {}\n", data->describe());
    if (s.model == ModelKind::closed) out += fmt::format("    {}\n", k_closed_caveat);
  }
  for (std::size_t i = 0; i < variables.size(); ++i) {
    if (variables.name(i).empty()) continue;
    std::string origin = variables.generator(i).text();
    for (const ScenarioPlan& s : scenarios) {
      const auto data = find_session_data(variables, s.name);
      if (data && std::find(data->variables.begin(), data->variables.end(), i) != data->variables.end())
        origin = fmt::format("a column of {} (each session's row)", data->file);
    }
    out += fmt::format("  variable {} = {}\n", variables.name(i), origin);
  }
  return out;
}

}  // namespace openloop::workload
