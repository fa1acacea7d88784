// Text, JSON and JUnit renderings of a Comparison.
#include "compare/compare_report.h"

#include <fmt/format.h>

#include "compare/text_table.h"
#include "core/units.h"
#include "report/text_format.h"

namespace openloop::compare {
namespace {

using report::format_latency;

std::string opt_change(std::optional<double> v, bool points) {
  return v ? signed_change(*v, points) : "?";
}

std::string interval(std::optional<double> low, std::optional<double> high, bool points) {
  return fmt::format("[{}, {}]", opt_change(low, points), opt_change(high, points));
}

nlohmann::json opt(std::optional<double> v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json opt_ms(std::optional<std::int64_t> v) {
  return v ? nlohmann::json(static_cast<double>(*v) / 1e6) : nlohmann::json(nullptr);
}

std::string verdict_text(bool known, const results::Verdict& v) {
  if (!known) return "unknown (.hlog)";
  return v.valid ? "VALID" : fmt::format("INVALID ({} reasons)", v.reasons.size());
}

std::string slos_text(const std::vector<results::SloResult>& slos) {
  if (slos.empty()) return "none";
  std::string s;
  for (const auto& r : slos) {
    s += fmt::format("{}{} {} ({})", s.empty() ? "" : "; ", r.slo.text,
                     !r.evaluated ? "not evaluated"
                     : r.met      ? "met"
                                  : "NOT met",
                     r.measured_text);
  }
  return s;
}

nlohmann::json slos_json(const std::vector<results::SloResult>& slos) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& r : slos) {
    a.push_back(
        {{"slo", r.slo.text}, {"evaluated", r.evaluated}, {"met", r.met}, {"measured", r.measured_text}});
  }
  return a;
}

}  // namespace

TextTable comparison_table(std::size_t name_width, std::size_t value_width) {
  using Align = TextTable::Align;
  return TextTable({{Align::left, 0, name_width},
                    {Align::right, 1, value_width},
                    {Align::right, 1, value_width},
                    {Align::right, 1, 10},
                    {Align::left, 2, 22},
                    {Align::left, 1, 0}});
}

namespace {

std::string render_table(const Comparison& c) {
  TextTable table = comparison_table(12, 12);
  table.add({"", "baseline", "candidate", "change", fmt::format("{:g} % interval", c.confidence * 100),
             "judgement"});
  for (const QuantileChange& q : c.percentiles) {
    table.add({fmt::format("p{}", q.percentile), q.baseline.count ? format_latency(q.baseline.value) : "-",
               q.candidate.count ? format_latency(q.candidate.value) : "-", opt_change(q.change, false),
               interval(q.low, q.high, false), std::string(to_string(q.direction))});
  }
  for (const NamedRate& r : c.rates) {
    table.add({r.name, format_rate(r.change.baseline), format_rate(r.change.candidate),
               opt_change(r.change.change, false), interval(r.change.low, r.change.high, false),
               std::string(to_string(r.change.direction))});
  }
  for (const NamedFraction& f : c.fractions) {
    table.add({f.name, fmt::format("{:.3g} %", f.change.baseline * 100),
               fmt::format("{:.3g} %", f.change.candidate * 100), opt_change(f.change.change, true),
               interval(f.change.low, f.change.high, true), std::string(to_string(f.change.direction))});
  }
  return table.render() + "\n";
}

}  // namespace

std::string render_text(const Comparison& c) {
  std::string out =
      fmt::format("compare: baseline {}, candidate {}\n", c.baseline_source, c.candidate_source);
  if (c.plan_checked) {
    out += c.same_plan ? fmt::format("plan: the same ({})\n", c.baseline_plan_hash.substr(0, 12))
                       : fmt::format("plan: DIFFERENT (baseline {}, candidate {})\n",
                                     c.baseline_plan_hash.substr(0, 12), c.candidate_plan_hash.substr(0, 12));
  }
  out += fmt::format("finding: {}\n\n", c.finding);
  if (c.comparable) out += render_table(c);
  out += fmt::format("verdict: baseline {}, candidate {}\n",
                     verdict_text(c.baseline_has_verdict, c.baseline_verdict),
                     verdict_text(c.candidate_has_verdict, c.candidate_verdict));
  if (c.baseline_has_verdict || c.candidate_has_verdict) {
    out += fmt::format("SLOs: baseline {}\n      candidate {}\n", slos_text(c.baseline_slos),
                       slos_text(c.candidate_slos));
  }
  for (const FailOnResult& g : c.gates) {
    out += fmt::format("fail-on {}: {}\n", g.gate.text, g.message);
  }
  for (const std::string& n : c.notes) out += fmt::format("note: {}\n", n);
  return out;
}

nlohmann::json to_json(const Comparison& c) {
  nlohmann::json j;
  j["schema"] = k_compare_schema;
  j["baseline"] = {
      {"source", c.baseline_source},
      {"plan_hash", c.baseline_plan_hash},
      {"verdict", c.baseline_has_verdict ? nlohmann::json{{"valid", c.baseline_verdict.valid},
                                                          {"reasons", c.baseline_verdict.reasons}}
                                         : nlohmann::json(nullptr)},
      {"slos", slos_json(c.baseline_slos)}};
  j["candidate"] = {
      {"source", c.candidate_source},
      {"plan_hash", c.candidate_plan_hash},
      {"verdict", c.candidate_has_verdict ? nlohmann::json{{"valid", c.candidate_verdict.valid},
                                                           {"reasons", c.candidate_verdict.reasons}}
                                          : nlohmann::json(nullptr)},
      {"slos", slos_json(c.candidate_slos)}};
  j["same_plan"] = c.same_plan;
  j["plan_checked"] = c.plan_checked;
  j["confidence"] = c.confidence;
  j["comparable"] = c.comparable;
  j["not_comparable"] = c.comparable ? nlohmann::json(nullptr) : nlohmann::json(c.not_comparable);
  j["finding"] = c.finding;
  j["significant"] = c.significant;
  nlohmann::json ps = nlohmann::json::array();
  for (std::size_t i = 0; i < c.percentiles.size(); ++i) {
    const QuantileChange& q = c.percentiles[i];
    const auto basis = [&](const std::vector<IntervalBasis>& b) {
      return i < b.size() ? to_string(b[i]) : to_string(IntervalBasis::independent);
    };
    ps.push_back(
        {{"percentile", q.percentile},
         {"baseline_ms", q.baseline.count ? nlohmann::json(static_cast<double>(q.baseline.value) / 1e6)
                                          : nlohmann::json(nullptr)},
         {"baseline_interval_ms", {opt_ms(q.baseline.low), opt_ms(q.baseline.high)}},
         {"baseline_count", q.baseline.count},
         {"baseline_interval_basis", basis(c.baseline_basis)},
         {"candidate_ms", q.candidate.count ? nlohmann::json(static_cast<double>(q.candidate.value) / 1e6)
                                            : nlohmann::json(nullptr)},
         {"candidate_interval_ms", {opt_ms(q.candidate.low), opt_ms(q.candidate.high)}},
         {"candidate_count", q.candidate.count},
         {"candidate_interval_basis", basis(c.candidate_basis)},
         {"change", opt(q.change)},
         {"interval", {opt(q.low), opt(q.high)}},
         {"judgement", to_string(q.direction)}});
  }
  j["response_time"] = ps;
  nlohmann::json rates = nlohmann::json::object();
  for (const NamedRate& r : c.rates) {
    rates[r.name] = {{"baseline_per_s", r.change.baseline},
                     {"candidate_per_s", r.change.candidate},
                     {"change", opt(r.change.change)},
                     {"interval", {opt(r.change.low), opt(r.change.high)}},
                     {"judgement", to_string(r.change.direction)}};
  }
  j["rates"] = rates;
  nlohmann::json fractions = nlohmann::json::object();
  for (const NamedFraction& f : c.fractions) {
    fractions[f.name] = {{"baseline", f.change.baseline},
                         {"candidate", f.change.candidate},
                         {"change_points", opt(f.change.change)},
                         {"interval", {opt(f.change.low), opt(f.change.high)}},
                         {"judgement", to_string(f.change.direction)}};
  }
  j["fractions"] = fractions;
  j["fail_on"] = fail_on_json(c.gates);
  j["failed"] = c.failed();
  j["notes"] = c.notes;
  return j;
}

void add_gate_cases(report::JunitReport& r, const std::vector<FailOnResult>& gates,
                    const std::string& finding) {
  for (const FailOnResult& g : gates) {
    report::JunitCase k;
    k.name = "fail-on " + g.gate.text;
    k.status = g.failed ? report::JunitCase::Status::failed : report::JunitCase::Status::passed;
    if (g.failed) k.message = g.message;
    k.detail = g.message + "\n" + finding;
    r.cases.push_back(std::move(k));
  }
  if (gates.empty()) {
    report::JunitCase k;
    k.name = "compare";
    k.detail = finding;
    r.cases.push_back(std::move(k));
  }
}

report::JunitReport junit_for_compare(const Comparison& c) {
  report::JunitReport r;
  r.suite = "openloop compare";
  r.properties = {{"baseline", c.baseline_source},
                  {"candidate", c.candidate_source},
                  {"baseline plan", c.baseline_plan_hash},
                  {"candidate plan", c.candidate_plan_hash},
                  {"confidence", fmt::format("{:g} %", c.confidence * 100)},
                  {"finding", c.finding}};
  add_gate_cases(r, c.gates, c.finding);
  return r;
}

}  // namespace openloop::compare
