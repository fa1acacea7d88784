// A RampComparison rendered: terminal text, JSON (openloop.compare/1, kind "ramp"), JUnit and an HTML page
// with p99 against offered rate of both ramps.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "compare/compare_report.h"
#include "compare/ramp_comparison.h"
#include "core/units.h"
#include "report/html/html_sections.h"
#include "report/text_format.h"

namespace openloop::compare {
namespace {

std::string opt_change(std::optional<double> v) {
  return v ? signed_change(*v) : "?";
}

std::string interval(std::optional<double> low, std::optional<double> high) {
  return fmt::format("[{}, {}]", opt_change(low), opt_change(high));
}

std::string rate_text(const RampRate& r) {
  if (!r.rps) return "-";
  return fmt::format("{} [{}, {}]", format_rate(*r.rps), r.low_rps ? format_rate(*r.low_rps) : "?",
                     r.high_rps ? format_rate(*r.high_rps) : "?");
}

using report::format_latency;

nlohmann::json opt(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json rate_json(const RampRate& r) {
  return {{"rps", opt(r.rps)}, {"low_rps", opt(r.low_rps)}, {"high_rps", opt(r.high_rps)}};
}

nlohmann::json estimate_json(const stats::QuantileEstimate& e) {
  const auto ms_of = [](const std::optional<std::int64_t>& v) {
    return v ? nlohmann::json(static_cast<double>(*v) / 1e6) : nlohmann::json(nullptr);
  };
  return {{"ms", e.count > 0 ? nlohmann::json(static_cast<double>(e.value) / 1e6) : nlohmann::json(nullptr)},
          {"low_ms", ms_of(e.low)},
          {"high_ms", ms_of(e.high)},
          {"count", e.count}};
}

}  // namespace

std::string render_ramp_text(const RampComparison& c) {
  std::string out =
      fmt::format("compare (ramps): baseline {}, candidate {}\n", c.baseline_source, c.candidate_source);
  out += c.same_plan ? fmt::format("plan: the same ({})\n", c.baseline_plan_hash.substr(0, 12))
                     : fmt::format("plan: DIFFERENT (baseline {}, candidate {})\n",
                                   c.baseline_plan_hash.substr(0, 12), c.candidate_plan_hash.substr(0, 12));
  out += fmt::format("finding: {}\n\n", c.finding);
  TextTable rates = comparison_table(16, 26);
  rates.add({"", "baseline [interval]", "candidate [interval]", "change", "interval", "judgement"});
  for (const RampRateChange& r : c.rates) {
    rates.add({r.name, rate_text(r.baseline), rate_text(r.candidate), opt_change(r.change),
               interval(r.low, r.high), std::string(to_string(r.direction))});
  }
  out += rates.render();
  if (!c.steps.empty()) {
    TextTable steps = comparison_table(16, 12);
    steps.add({"p99 at", "baseline", "candidate", "change", "interval", "judgement"});
    for (const RampStepChange& s : c.steps) {
      const QuantileChange& q = s.p99;
      steps.add({format_rate(s.offered_rps), q.baseline.count ? format_latency(q.baseline.value) : "-",
                 q.candidate.count ? format_latency(q.candidate.value) : "-", opt_change(q.change),
                 interval(q.low, q.high), std::string(to_string(q.direction))});
    }
    out += "\n" + steps.render();
  }
  out += fmt::format("\nbaseline:  {}\ncandidate: {}\n", c.baseline_finding, c.candidate_finding);
  for (const FailOnResult& g : c.gates) out += fmt::format("fail-on {}: {}\n", g.gate.text, g.message);
  for (const std::string& n : c.notes) out += fmt::format("note: {}\n", n);
  return out;
}

nlohmann::json ramp_comparison_json(const RampComparison& c) {
  nlohmann::json j;
  j["schema"] = k_compare_schema;
  j["kind"] = "ramp";
  j["baseline"] = {
      {"source", c.baseline_source}, {"plan_hash", c.baseline_plan_hash}, {"finding", c.baseline_finding}};
  j["candidate"] = {
      {"source", c.candidate_source}, {"plan_hash", c.candidate_plan_hash}, {"finding", c.candidate_finding}};
  j["same_plan"] = c.same_plan;
  j["finding"] = c.finding;
  j["significant"] = c.significant;
  nlohmann::json rates = nlohmann::json::array();
  for (const RampRateChange& r : c.rates) {
    rates.push_back({{"name", r.name},
                     {"baseline", rate_json(r.baseline)},
                     {"candidate", rate_json(r.candidate)},
                     {"change", opt(r.change)},
                     {"low", opt(r.low)},
                     {"high", opt(r.high)},
                     {"direction", to_string(r.direction)}});
  }
  j["rates"] = rates;
  nlohmann::json steps = nlohmann::json::array();
  for (const RampStepChange& s : c.steps) {
    steps.push_back({{"offered_rps", s.offered_rps},
                     {"baseline_step", s.baseline_step},
                     {"candidate_step", s.candidate_step},
                     {"p99",
                      {{"baseline", estimate_json(s.p99.baseline)},
                       {"candidate", estimate_json(s.p99.candidate)},
                       {"change", opt(s.p99.change)},
                       {"low", opt(s.p99.low)},
                       {"high", opt(s.p99.high)},
                       {"direction", to_string(s.p99.direction)}}}});
  }
  j["steps"] = steps;
  j["fail_on"] = fail_on_json(c.gates);
  j["failed"] = c.failed();
  j["notes"] = c.notes;
  return j;
}

report::JunitReport junit_for_ramp_compare(const RampComparison& c) {
  report::JunitReport r;
  r.suite = "openloop compare";
  r.properties = {{"baseline", c.baseline_source},
                  {"candidate", c.candidate_source},
                  {"baseline plan", c.baseline_plan_hash},
                  {"candidate plan", c.candidate_plan_hash},
                  {"finding", c.finding}};
  add_gate_cases(r, c.gates, c.finding);
  return r;
}

namespace {

constexpr double k_width = 760, k_height = 360, k_left = 70, k_right = 20, k_top = 20, k_bottom = 50;

// p99 (ms) against offered rate for the steps both ramps ran, baseline blue and candidate red, with each
// step's interval as a vertical bar.
std::string chart(const RampComparison& c) {
  if (c.steps.empty()) return "<p>No offered rate in common to draw.</p>\n";
  double x_max = 0, y_max = 0;
  for (const RampStepChange& s : c.steps) {
    x_max = std::max(x_max, s.offered_rps);
    for (const auto* e : {&s.p99.baseline, &s.p99.candidate}) {
      y_max = std::max(y_max, static_cast<double>(e->high.value_or(e->value)) / 1e6);
    }
  }
  x_max = x_max <= 0 ? 1 : x_max * 1.05;
  y_max = y_max <= 0 ? 1 : y_max * 1.05;
  const double plot_w = k_width - k_left - k_right, plot_h = k_height - k_top - k_bottom;
  const auto px = [&](double x) { return k_left + x / x_max * plot_w; };
  const auto py = [&](double y) { return k_height - k_bottom - y / y_max * plot_h; };
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "role=\"img\" aria-label=\"p99 by offered rate, baseline and candidate\">\n"
      "<rect x=\"{2}\" y=\"{3}\" width=\"{4}\" height=\"{5}\" fill=\"none\" stroke=\"#999\"/>\n",
      k_width, k_height, k_left, k_top, plot_w, plot_h);
  for (int i = 0; i <= 4; ++i) {
    svg += fmt::format(
        "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\" font-size=\"12\">{}</text>\n"
        "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" font-size=\"12\">{:.0f}/s</text>\n",
        k_left - 6, py(y_max * i / 4) + 4, format_duration(from_seconds(y_max * i / 4 / 1e3)),
        px(x_max * i / 4), k_height - k_bottom + 16, x_max * i / 4);
  }
  const auto series = [&](bool baseline, const char* colour) {
    std::string points;
    for (const RampStepChange& s : c.steps) {
      const stats::QuantileEstimate& e = baseline ? s.p99.baseline : s.p99.candidate;
      if (e.count == 0) continue;
      const double x = px(s.offered_rps) + (baseline ? -3 : 3);
      points += fmt::format("{:.1f},{:.1f} ", x, py(static_cast<double>(e.value) / 1e6));
      if (e.low && e.high) {
        svg += fmt::format(
            "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"{3}\"/>\n", x,
            py(static_cast<double>(*e.low) / 1e6), py(static_cast<double>(*e.high) / 1e6), colour);
      }
    }
    svg += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\" points=\"{}\"/>\n", colour,
                       points);
  };
  series(true, "#1f77b4");
  series(false, "#d62728");
  svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"12\">offered rate</text>\n",
                     k_left + plot_w / 2, k_height - 12);
  return svg + "</svg>\n";
}

}  // namespace

std::string render_ramp_compare_html(const RampComparison& c) {
  return comparison_page("openloop compare: two ramps", "", c.baseline_source, c.candidate_source, c.finding,
                         "p99 by offered rate (bars: each step's 95 % interval)", chart(c),
                         render_ramp_text(c));
}

}  // namespace openloop::compare
