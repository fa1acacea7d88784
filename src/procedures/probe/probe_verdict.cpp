// Classification of a probe run: inconclusive checks, the recovery search, sustaining signals and the
// sentence.
#include "procedures/probe/probe_verdict.h"
#include "procedures/probe/probe_format.h"
#include "procedures/probe/probe_lateness.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/units.h"
#include "report/text_format.h"
#include "results/judging/verdict.h"

namespace openloop::procedures {
namespace {

constexpr double k_eps_s = 1e-6;

std::size_t window_intervals(Nanos window) {
  return static_cast<std::size_t>(std::llround(to_seconds(window)));
}

using report::format_latency;

std::string secs(double s) {
  return fmt::format("{:.0f}s", s);
}

// The last lab sample taken at or before t (seconds since the start of measurement).
const LabSample* lab_at(const std::vector<LabSample>& lab, double t) {
  const LabSample* best = nullptr;
  for (const LabSample& s : lab) {
    if (s.t_s <= t + k_eps_s) best = &s;
  }
  return best;
}

// Requests the lab completed per second between two times, if it was polled at both.
std::optional<double> lab_completed_rate(const std::vector<LabSample>& lab, double from, double to) {
  const LabSample *a = lab_at(lab, from), *b = lab_at(lab, to);
  if (a == nullptr || b == nullptr || b->t_s - a->t_s < 0.5) return std::nullopt;
  return static_cast<double>(b->completed - a->completed) / (b->t_s - a->t_s);
}

std::vector<PhaseRow> phase_rows(const ProbePlan& plan, const std::vector<Sample>& samples,
                                 const RunFacts& facts) {
  std::vector<PhaseRow> rows;
  for (const Phase& p : plan.phases) {
    PhaseRow row;
    row.phase = p;
    row.stats = stats_of(span_of(samples, p.start, p.end()));
    // Once recovered at the base load the probe stops: a step cut short says nothing either.
    row.skipped = facts.stopped_after_recovery && p.kind == Phase::Kind::descend;
    for (const LabSample& s : facts.lab) {
      if (s.t_s < to_seconds(p.start) || s.t_s >= to_seconds(p.end())) continue;
      row.lab_queue_max = std::max(row.lab_queue_max.value_or(0), s.queue_depth + s.held);
    }
    rows.push_back(row);
  }
  return rows;
}

bool covers(const std::vector<Sample>& samples, Nanos end) {
  return !samples.empty() && samples.back().start_s + samples.back().length_s >= to_seconds(end) - k_eps_s;
}

// The run verdict's drop and sent bounds, per phase that ran: a plan applied in the whole run on average may
// still have missed it in the one phase the verdict rests on. Only the phase's own intervals count.
void plan_applied_per_phase(const std::vector<PhaseRow>& rows, std::vector<std::string>& why) {
  const results::VerdictBounds bounds;
  for (const PhaseRow& row : rows) {
    const Stats& s = row.stats;
    if (row.skipped || s.intended == 0) continue;
    if (s.dropped_fraction > bounds.max_dropped_fraction) {
      why.push_back(fmt::format(
          "the generator did not apply the plan during {}: it dropped {:.2f}% of the intended "
          "requests (bound {:.0f}%): the connection pool was full (raise --max-connections or use "
          "--on-saturation queue)",
          row.phase.name(), 100 * s.dropped_fraction, 100 * bounds.max_dropped_fraction));
    } else if (s.sent_fraction < bounds.min_sent_fraction) {  // drops alone lower the sent share too
      why.push_back(
          fmt::format("the generator did not apply the plan during {}: it sent {:.2f}% of the intended "
                      "requests (bound {:.0f}%)",
                      row.phase.name(), 100 * s.sent_fraction, 100 * bounds.min_sent_fraction));
    }
  }
}

std::vector<std::string> inconclusive_reasons(const ProbePlan& plan, const std::vector<Sample>& samples,
                                              const RunFacts& facts, const ProbeOutcome& out) {
  std::vector<std::string> why;
  // A target never reached measured nothing: the verdict's reason names it (the target's failure), and the phases'
  // unsent requests are not the generator's.
  if (facts.unreachable) {
    for (const auto& r : facts.reasons) why.push_back(r);
    return why;
  }
  if (facts.interrupted && !covers(samples, plan.phase(Phase::Kind::observe).end())) {
    why.push_back("the probe was interrupted before the observe phase ended");
  }
  plan_applied_per_phase(out.phases, why);
  for (const auto& r : facts.reasons) why.push_back("the generator did not apply the plan: " + r);
  const BaselineJudgement& baseline = out.baseline;
  for (const auto& p : baseline.problems) why.push_back("the baseline was not steady: " + p);
  for (const auto& f : facts.baseline_slo_failures) why.push_back("the baseline missed an SLO: " + f);
  return why;
}

std::optional<WindowJudgement> last_window(const std::vector<Sample>& samples, const Phase& phase,
                                           Nanos window, const Stats& baseline, double base_rate,
                                           const RecoveryCriteria& c) {
  const auto span = span_of(samples, phase.start, phase.end());
  if (span.empty()) return std::nullopt;
  const std::size_t w = std::min(window_intervals(window), span.size());
  return judge_window(span.last(w), phase.rate, baseline, base_rate, c);
}

// The lab's queue (waiting + held) at the first and last poll inside [from, to), if it was polled there.
std::optional<std::pair<std::uint64_t, std::uint64_t>> lab_queue_span(const std::vector<LabSample>& lab,
                                                                      double from, double to) {
  const LabSample *first = nullptr, *last = nullptr;
  for (const LabSample& s : lab) {
    if (s.t_s < from || s.t_s >= to) continue;
    if (first == nullptr) first = &s;
    last = &s;
  }
  if (first == nullptr || first == last) return std::nullopt;
  return std::pair{first->queue_depth + first->held, last->queue_depth + last->held};
}

// Backlog over the observe phase: growing (the client's in flight by Little's law, or the lab's own queue),
// or persistent (draining too slowly to recover in time). The client's view is capped by its deadline; the
// lab's is not.
void backlog_signal(const std::span<const Sample> observe,
                    std::optional<std::pair<std::uint64_t, std::uint64_t>> lab, const WindowJudgement& last,
                    const Stats& baseline, std::vector<Signal>& out) {
  const Check& flight = last.checks[2];
  const bool lab_growing =
      lab && static_cast<double>(lab->second) > 1.2 * static_cast<double>(lab->first) + 10;
  if ((flight.met && !lab_growing) || observe.size() < 2) return;
  const std::size_t half = observe.size() / 2;
  const double first = stats_of(observe.first(half)).in_flight,
               second = stats_of(observe.subspan(half)).in_flight;
  const std::string client =
      fmt::format("in flight (Little's law) {:.1f} → {:.1f} during observe (baseline {:.1f})", first, second,
                  baseline.in_flight);
  if (second > 1.2 * first || lab_growing) {
    const std::string at_lab =
        lab_growing
            ? fmt::format("the lab's queue grew from {} to {} during observe; ", lab->first, lab->second)
            : "";
    out.push_back({"growing backlog", at_lab + client + ": work arrives faster than it leaves"});
    return;
  }
  std::string eta;
  // The halves' midpoints lie half the phase apart.
  const double apart_s = (observe.back().start_s + observe.back().length_s - observe.front().start_s) / 2.0;
  const double per_s = (first - second) / apart_s;
  if (second < 0.8 * first && per_s > 0) {
    eta = fmt::format(
        "; draining at ~{:.1f}/s, it would reach {:.1f} in ~{:.0f}s more: a longer --observe-for tells",
        per_s, flight.bound, std::max(0.0, (last.stats.in_flight - flight.bound) / per_s));
  }
  out.push_back({"persistent backlog", client + eta});
}

void lab_signal(const ProbePlan& plan, const RunFacts& facts, std::vector<Signal>& out) {
  const Phase& trigger = plan.phase(Phase::Kind::trigger);
  const Phase& observe = plan.phase(Phase::Kind::observe);
  const LabSample* at_trigger_end = lab_at(facts.lab, to_seconds(trigger.end()));
  const LabSample* at_observe_end = lab_at(facts.lab, to_seconds(observe.end()));
  if (at_trigger_end == nullptr || at_observe_end == nullptr || at_observe_end == at_trigger_end) return;
  const auto depth = [](const LabSample* s) { return s->queue_depth + s->held; };
  if (depth(at_observe_end) == 0) return;  // drained: evidence of recovery, not of what sustains a failure
  out.push_back(
      {"lab queue", fmt::format("the lab's queue held {} at the trigger's end and {} at the observe's end",
                                depth(at_trigger_end), depth(at_observe_end))});
}

// Goodput near zero while the service stays busy: its capacity goes to requests nobody waits for any more.
void wasted_work_signal(const ProbePlan& plan, const RunFacts& facts, const WindowJudgement& last,
                        const Stats& base, std::vector<Signal>& out) {
  if (last.stats.goodput >= 0.10 * base.goodput) return;
  const Phase& baseline = plan.phase(Phase::Kind::baseline);
  const auto lab_now = lab_completed_rate(facts.lab, last.start_s, last.end_s);
  const auto lab_base = lab_completed_rate(facts.lab, to_seconds(baseline.start), to_seconds(baseline.end()));
  if (lab_now && lab_base && *lab_now >= 0.5 * *lab_base) {
    out.push_back(
        {"goodput ~0 with throughput ~capacity",
         fmt::format("goodput {} while the lab completed {}: its capacity went to requests whose clients "
                     "had given up",
                     rate_of(last.stats.goodput), rate_of(*lab_now))});
  } else if (last.stats.throughput >= 0.5 * base.throughput) {
    out.push_back({"goodput ~0 with throughput ~capacity",
                   fmt::format("goodput {} with throughput {}: the answers were errors",
                               rate_of(last.stats.goodput), rate_of(last.stats.throughput))});
  }
}

std::vector<Signal> signals_of(const ProbePlan& plan, const std::vector<Sample>& samples,
                               const RunFacts& facts, const WindowJudgement& last, const Stats& base) {
  std::vector<Signal> out;
  if (!last.checks[3].met) {
    out.push_back(
        {"amplification", fmt::format("{:.2f} attempts per request (baseline {:.2f}): retries multiply the "
                                      "load",
                                      last.stats.amplification, base.amplification)});
  }
  wasted_work_signal(plan, facts, last, base, out);
  const Phase& observe = plan.phase(Phase::Kind::observe);
  backlog_signal(span_of(samples, observe.start, observe.end()),
                 lab_queue_span(facts.lab, to_seconds(observe.start), to_seconds(observe.end())), last, base,
                 out);
  lab_signal(plan, facts, out);
  if (last.stats.timeout_fraction > 0.01) {
    out.push_back(
        {"timeouts", fmt::format("{:.1f}% of requests timed out", 100 * last.stats.timeout_fraction)});
  }
  if (const double errors = last.stats.not_ok_fraction - last.stats.timeout_fraction; errors > 0.01) {
    out.push_back({"errors", fmt::format("{:.1f}% failed or answered an error status", 100 * errors)});
  }
  if (const Check& tail = last.checks[1]; !tail.met) {
    const Tail t = estimable_tail(last.stats.intended);
    out.push_back({"latency", fmt::format("{} {} (baseline {})", t.name, format_latency(last.stats.*t.value),
                                          format_latency(base.*t.value))});
  }
  if (out.empty() && !last.checks[0].met) {
    out.push_back({"low goodput", fmt::format("goodput {} (baseline {})", rate_of(last.stats.goodput),
                                              rate_of(base.goodput))});
  }
  return out;
}

std::string signals_text(const std::vector<Signal>& signals) {
  if (signals.empty()) return "";
  std::string text = fmt::format("; sustained by {}: {}", signals.front().name, signals.front().text);
  for (std::size_t i = 1; i < signals.size(); ++i) {
    text += fmt::format("{}{}", i == 1 ? "; also " : ", ", signals[i].name);
  }
  return text;
}

std::string window_text(const WindowJudgement& w) {
  std::string checks;
  for (const Check& c : w.checks) checks += (checks.empty() ? "" : ", ") + c.text;
  return fmt::format("the window {}–{} at {} met every criterion ({})", secs(w.start_s), secs(w.end_s),
                     rate_of(w.rate), checks);
}

void note_weak_trigger(const ProbePlan& plan, const std::vector<Sample>& samples, const Stats& base,
                       ProbeOutcome& out) {
  const Phase& trigger = plan.phase(Phase::Kind::trigger);
  const auto span = span_of(samples, trigger.start, trigger.end());
  if (span.empty()) return;
  const WindowJudgement t =
      judge_window(span, trigger.rate, base, plan.settings.base_rate, plan.settings.criteria);
  if (t.met) {
    out.notes.push_back(
        fmt::format("the trigger did not push the system out of its baseline (goodput {}, p99 {} "
                    "during the trigger): a stronger trigger makes a meaningful probe",
                    rate_of(t.stats.goodput), format_latency(t.stats.p99_ns)));
  }
}

void conclude_not_recovered_at_base(const ProbePlan& plan, const std::vector<Sample>& samples,
                                    ProbeOutcome& out) {
  const ProbeSettings& s = plan.settings;
  const Stats& base = out.baseline.stats;
  const double trigger_end = to_seconds(plan.phase(Phase::Kind::trigger).end());
  const std::string at_base = fmt::format(
      "did not recover at {}, a load it served before (goodput {}, p99 {}), "
      "within the {} observed after the trigger",
      rate_of(s.base_rate), rate_of(base.goodput), format_latency(base.p99_ns), format_duration(s.observe));
  for (const Phase& p : plan.phases) {
    if (p.kind != Phase::Kind::descend) continue;
    auto w = first_recovered(samples, p, s.window, base, s.base_rate, s.criteria);
    if (!w) continue;
    out.verdict = ProbeVerdict::recovered_at_lower_load;
    out.recovery_s = w->start_s - trigger_end;
    out.recovered_rate = p.rate;
    out.sentence = fmt::format(
        "RECOVERED-AT-LOWER-LOAD: {}{}; it recovered only at {} ({}, {:.0f}s after the "
        "trigger ended): hysteresis",
        at_base, signals_text(out.signals), rate_of(p.rate), p.name(), *out.recovery_s);
    out.healthy_window = std::move(w);
    return;
  }
  out.verdict = ProbeVerdict::metastable;
  const bool descended = std::any_of(plan.phases.begin(), plan.phases.end(),
                                     [](const Phase& p) { return p.kind == Phase::Kind::descend; });
  out.sentence = fmt::format(
      "METASTABLE: {}{}{}", at_base,
      descended ? fmt::format(" (nor on any descending step down to {})", rate_of(plan.phases.back().rate))
                : std::string(),
      signals_text(out.signals));
}

// A late generator shifts every response time it measures: the verdict stands, with a note, when it holds for
// any such shift; otherwise it is INCONCLUSIVE.
void weigh_lateness(const ProbePlan& plan, const std::vector<Sample>& samples, const RunFacts& facts,
                    ProbeOutcome& out) {
  const Lateness late = lateness_of(out.phases);
  if (late.over_bound.empty()) return;
  if (auto why = lateness_decides(plan, samples, out, late, facts.timeout_s)) {
    out.notes.push_back("without the generator's lateness the verdict would read: " + out.sentence);
    out.verdict = ProbeVerdict::inconclusive;
    out.sentence = "INCONCLUSIVE: " + *why;
    out.recovery_s.reset();
    out.recovered_rate.reset();
    return;
  }
  out.notes.push_back(lateness_note(plan, samples, out, late));
}

}  // namespace

const char* to_string(ProbeVerdict v) {
  switch (v) {
    case ProbeVerdict::recovered:
      return "RECOVERED";
    case ProbeVerdict::recovered_at_lower_load:
      return "RECOVERED-AT-LOWER-LOAD";
    case ProbeVerdict::metastable:
      return "METASTABLE";
    case ProbeVerdict::inconclusive:
      return "INCONCLUSIVE";
  }
  return "?";
}

std::optional<WindowJudgement> first_recovered(const std::vector<Sample>& samples, const Phase& phase,
                                               Nanos window, const Stats& baseline, double base_rate,
                                               const RecoveryCriteria& c) {
  const auto span = span_of(samples, phase.start, phase.end());
  const std::size_t w = window_intervals(window);
  if (w == 0 || span.size() < w) return std::nullopt;
  for (std::size_t i = 0; i + w <= span.size(); ++i) {
    WindowJudgement j = judge_window(span.subspan(i, w), phase.rate, baseline, base_rate, c);
    if (j.met) return j;
  }
  return std::nullopt;
}

ProbeOutcome classify(const ProbePlan& plan, const std::vector<Sample>& samples, const RunFacts& facts) {
  const ProbeSettings& s = plan.settings;
  const Phase& baseline_phase = plan.phase(Phase::Kind::baseline);
  ProbeOutcome out;
  out.phases = phase_rows(plan, samples, facts);
  out.baseline = judge_baseline(span_of(samples, baseline_phase.start, baseline_phase.end()));
  const Stats& base = out.baseline.stats;
  if (const auto why = inconclusive_reasons(plan, samples, facts, out); !why.empty()) {
    out.verdict = ProbeVerdict::inconclusive;
    out.sentence = "INCONCLUSIVE: " + why.front();
    for (std::size_t i = 1; i < why.size(); ++i) out.sentence += "; " + why[i];
    return out;
  }
  note_weak_trigger(plan, samples, base, out);
  const Phase& observe = plan.phase(Phase::Kind::observe);
  const double trigger_end = to_seconds(plan.phase(Phase::Kind::trigger).end());
  out.last_base_window = last_window(samples, observe, s.window, base, s.base_rate, s.criteria);
  if (auto w = first_recovered(samples, observe, s.window, base, s.base_rate, s.criteria)) {
    out.verdict = ProbeVerdict::recovered;
    out.recovery_s = w->start_s - trigger_end;
    out.recovered_rate = s.base_rate;
    out.sentence =
        fmt::format("RECOVERED {:.0f}s after the trigger ended: {}", *out.recovery_s, window_text(*w));
    out.healthy_window = std::move(w);
  } else {
    if (out.last_base_window) out.signals = signals_of(plan, samples, facts, *out.last_base_window, base);
    conclude_not_recovered_at_base(plan, samples, out);
  }
  weigh_lateness(plan, samples, facts, out);
  return out;
}

void add_phase_intervals(std::vector<PhaseRow>& rows, const std::vector<Sample>& samples,
                         const results::RunChecks& checks) {
  static constexpr double k_percentiles[] = {50, 90, 99, 99.9};
  for (PhaseRow& row : rows) {
    hdr::Histogram h = results::make_latency_histogram();
    for (const Sample& s : span_of(samples, row.phase.start, row.phase.end())) h.add(s.response_time);
    const results::IndependenceCheck* c =
        checks.window(to_seconds(row.phase.start), to_seconds(row.phase.end()));
    row.independence = c != nullptr ? *c : results::IndependenceCheck{};
    const double n = static_cast<double>(h.total_count());
    const double effective = row.independence.tested ? n * row.independence.effective_fraction : 0;
    for (std::size_t i = 0; i < row.latency.size(); ++i)
      row.latency[i] = stats::estimate_quantile(h, k_percentiles[i], 1.96, effective);
  }
}

nlohmann::json phase_intervals_json(const PhaseRow& row) {
  static constexpr const char* k_names[] = {"p50", "p90", "p99", "p999"};
  const auto ms = [](const std::optional<std::int64_t>& ns) {
    return ns ? nlohmann::json(static_cast<double>(*ns) / 1e6) : nlohmann::json(nullptr);
  };
  nlohmann::json j = nlohmann::json::object();
  for (std::size_t i = 0; i < row.latency.size(); ++i) {
    const stats::QuantileEstimate& q = row.latency[i];
    j[k_names[i]] = {{"value", static_cast<double>(q.value) / 1e6},
                     {"ci95", {ms(q.low), ms(q.high)}}};
  }
  j["count"] = row.latency[0].count;
  j["effective_count"] = row.latency[0].effective_count;
  j["independence"] = results::to_json(row.independence);
  if (const std::string flag = results::correlation_flag(row.independence); !flag.empty())
    j["correlation"] = flag;
  return j;
}

nlohmann::json ProbeOutcome::to_json() const {
  nlohmann::json phases_json = nlohmann::json::array();
  for (const PhaseRow& r : phases) {
    nlohmann::json row = {{"name", r.phase.name()},
                          {"rate_rps", r.phase.rate},
                          {"start_s", to_seconds(r.phase.start)},
                          {"end_s", to_seconds(r.phase.end())},
                          {"skipped", r.skipped},
                          {"stats", r.stats.to_json()},
                          {"response_time_ms", phase_intervals_json(r)}};
    if (r.lab_queue_max) row["lab_queue_max"] = *r.lab_queue_max;
    phases_json.push_back(std::move(row));
  }
  nlohmann::json signals_json = nlohmann::json::array();
  for (const Signal& sig : signals) signals_json.push_back({{"name", sig.name}, {"text", sig.text}});
  nlohmann::json out = {
      {"verdict", to_string(verdict)},
      {"sentence", sentence},
      {"recovery_s", recovery_s ? nlohmann::json(*recovery_s) : nlohmann::json()},
      {"recovered_at_rps", recovered_rate ? nlohmann::json(*recovered_rate) : nlohmann::json()},
      {"signals", signals_json},
      {"notes", notes},
      {"baseline",
       {{"steady", baseline.steady}, {"problems", baseline.problems}, {"stats", baseline.stats.to_json()}}},
      {"phases", phases_json}};
  out["healthy_window"] = healthy_window ? healthy_window->to_json() : nlohmann::json();
  out["last_base_window"] = last_base_window ? last_base_window->to_json() : nlohmann::json();
  return out;
}

}  // namespace openloop::procedures
