// The ramp's JSON document (openloop.ramp/1): settings, step summaries, findings, and every run's full
// results.
#include <cmath>

#include <fmt/format.h>

#include "hdr/codec.h"
#include "procedures/ramp/ramp_report.h"
#include "results/merging/repeats.h"
#include "results/files/results_json.h"
#include "results/judging/run_checks.h"

namespace openloop::procedures {
namespace {

using nlohmann::json;

json opt_ms(const std::optional<std::int64_t>& ns) {
  return ns ? json(static_cast<double>(*ns) / 1e6) : json(nullptr);
}

json latency_json(const StepAnalysis& a) {
  static constexpr const char* k_names[] = {"p50", "p90", "p99", "p999"};
  json j = json::object();
  for (std::size_t i = 0; i < a.latency.size(); ++i) {
    const stats::QuantileEstimate& q = a.latency[i];
    j[k_names[i]] = {{"value", static_cast<double>(q.value) / 1e6},
                     {"ci95", {opt_ms(q.low), opt_ms(q.high)}}};
  }
  j["count"] = a.latency[0].count;
  j["mean"] = a.results.response_time.mean() / 1e6;
  j["max"] = static_cast<double>(a.results.response_time.max()) / 1e6;
  j["p99_censored"] = a.p99_censored;
  j["effective_count"] = a.latency[0].effective_count;
  j["independence"] = results::to_json(a.independence);
  const std::string flag = results::correlation_flag(a.independence);
  if (!flag.empty()) j["correlation"] = flag;
  return j;
}

json counts_json(const results::Counters& c) {
  return {{"intended", c.intended},   {"sent", c.sent},
          {"completed", c.completed}, {"ok", c.ok},
          {"timeouts", c.timeouts},   {"errors", c.errors_total()},
          {"dropped", c.dropped},     {"unfinished", c.unfinished}};
}

json slos_json(const StepRecord& s) {
  json out = json::array();
  for (const auto& r : s.slos) {
    out.push_back({{"slo", r.slo.text},
                   {"evaluated", r.evaluated},
                   {"met", r.met},
                   {"measured", r.measured_text},
                   {"threshold", r.threshold_text}});
  }
  return out;
}

// --step-until's outcomes as run's checks.until writes them (results/judging/run_checks_json.cpp).
json until_json(const StepRecord& s) {
  json out = json::array();
  for (const auto& u : s.until) out.push_back(results::to_json(u));
  return out;
}

json record_json(const StepRecord& s, const std::vector<std::string>& marks) {
  const StepAnalysis& a = s.analysis;
  json j = {{"number", s.number},
            {"refinement", s.refinement},
            {"offered_rps", a.window.offered_rps},
            {"window",
             {{"run", a.window.run},
              {"from_s", a.window.from_s},
              {"to_s", a.window.to_s},
              {"measured_s", a.results.measured_s}}},
            {"state", to_string(a.state)},
            {"reasons", a.reasons},
            {"passes", s.passes()},
            {"slos", slos_json(s)},
            {"marks", marks},
            {"counts", counts_json(a.results.totals)},
            {"sent_rps", a.sent_rps},
            {"throughput_rps", a.completed_rps},
            {"completed_of_arrivals_rps", a.completed_of_arrivals_rps},
            {"goodput_rps", a.goodput_rps},
            {"goodput_exact", a.goodput_exact},
            {"response_time_ms", latency_json(a)},
            {"in_flight", {{"mean", a.mean_in_flight}, {"growth", a.in_flight_growth}}},
            {"steadiness",
             {{"goodput_cv", a.goodput_cv},
              {"halves_goodput", {a.first_half_goodput, a.second_half_goodput}},
              {"halves_mean_ms", {a.first_half_mean_ms, a.second_half_mean_ms}},
              {"send_lateness_p99_ms", a.lateness_p99_ms}}},
            {"histograms",
             {{"unit", "ns"}, {"response_time", hdr::to_compressed_base64(a.results.response_time)}}}};
  if (!s.until.empty()) j["until"] = until_json(s);
  return j;
}

// --repeat: each repeat as a step of its own (its window, verdict, percentiles, histogram) with its seed and
// lab reset, and the spread across them as `run --repeat` writes it (results/merging/repeats.h).
void add_repeats(const StepRecord& s, json& j) {
  if (s.repeats.empty()) return;
  json repeats = json::array();
  for (std::size_t k = 0; k < s.repeats.size(); ++k) {
    json r = record_json(s.repeats[k], {});
    r.update(results::repeat_entry_json(s.repeat_set, s.spreads, k));
    repeats.push_back(std::move(r));
  }
  j["repeats"] = std::move(repeats);
  json summary = results::repeat_summary_json(s.repeat_set, s.spreads);
  summary["totals"] =
      "the step's fields are those of the repeat it is judged on (judged_on): the upper median by p99, "
      "INVALID repeats ranked last";
  summary["judged_on"] = s.judged_on + 1;
  summary["disagree"] = s.disagreement.empty() ? json(nullptr) : json(s.disagreement);
  j["repeat_summary"] = std::move(summary);
}

json step_json(const RampOutcome& o, std::size_t i) {
  json j = record_json(o.steps[i], step_marks(o, i));
  add_repeats(o.steps[i], j);
  return j;
}

json settings_json(const RampSettings& s) {
  json slos = json::array();
  for (const auto& slo : s.slos) slos.push_back(slo.text);
  json until = json::array();
  for (const auto& t : s.step_until) until.push_back(t.text);
  return {{"from_rps", s.from_rps},
          {"to_rps", s.to_rps > 0 ? json(s.to_rps) : json(nullptr)},
          {"step_mult", s.step_mult > 0 ? json(s.step_mult) : json(nullptr)},
          {"step_add_rps", s.step_add > 0 ? json(s.step_add) : json(nullptr)},
          {"warmup_s", to_seconds(s.warmup)},
          {"hold_s", to_seconds(s.hold)},
          {"max_steps", s.max_steps},
          {"refine", s.refine},
          {"tolerance", s.tolerance},
          {"stop_at", to_string(s.stop_at)},
          {"fresh", s.fresh},
          {"cooldown_s", to_seconds(s.cooldown)},
          {"repeat", s.repeat >= 2 ? json(s.repeat) : json(nullptr)},
          {"deadline_s", s.step.deadline.count() > 0 ? json(to_seconds(s.step.deadline)) : json(nullptr)},
          {"slos", slos},
          {"default_slo", s.default_slo},
          {"max_lateness_ms", s.step.bounds.generator.lateness_floor_ms},
          {"step_until", until},
          {"step_max_hold_s", s.step_until.empty() ? json(nullptr) : json(to_seconds(s.step_max_hold))}};
}

json opt_step(const RampOutcome& o, const std::optional<std::size_t>& i) {
  if (!i) return nullptr;
  return {{"step", o.steps[*i].number}, {"offered_rps", o.steps[*i].analysis.window.offered_rps}};
}

json findings_json(const RampOutcome& o) {
  const RampFindings& f = o.findings;
  json capacity = nullptr;
  if (f.capacity) {
    capacity = {{"rps", f.capacity_rps},
                {"low_rps", f.capacity_low_rps},
                {"high_rps", f.capacity_high_rps},
                {"tolerance", f.capacity_tolerance},
                {"bounded", f.bounded},
                {"step", o.steps[*f.capacity].number}};
  }
  json below = json::array();
  for (const std::size_t i : f.failed_below) below.push_back(o.steps[i].number);
  return {{"sentence", findings_sentence(o.steps, f)},
          {"capacity", capacity},
          {"ceiling", opt_step(o, f.ceiling)},
          {"failed_below_capacity", below},
          {"knee", {{"p99", opt_step(o, f.knee_latency)}, {"goodput", opt_step(o, f.knee_goodput)}}},
          {"peak_goodput", opt_step(o, f.peak)},
          {"collapse", opt_step(o, f.collapse)},
          {"collapse_confirmed_by", opt_step(o, f.collapse_confirmed_by)}};
}

}  // namespace

json ramp_to_json(const RampOutcome& o, const RampSettings& s) {
  json steps = json::array();
  for (std::size_t i = 0; i < o.steps.size(); ++i) steps.push_back(step_json(o, i));
  json runs = json::array();
  for (const auto& r : o.runs) runs.push_back(results::to_json(r));
  return {{"schema", k_ramp_schema},
          {"settings", settings_json(s)},
          {"findings", findings_json(o)},
          {"stopped", o.stopped.empty() ? json(nullptr) : json(o.stopped)},
          {"interrupted", o.interrupted},
          {"notes", o.notes},
          {"steps", steps},
          {"runs", runs}};
}

}  // namespace openloop::procedures
