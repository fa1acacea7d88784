// The ramp's HTML page: the knee chart, the findings and the step table, on top of one run's per-second
// report.
#include <fmt/format.h>

#include "procedures/ramp/ramp_report.h"
#include "report/html/html.h"
#include "report/html/html_knee.h"
#include "report/text_format.h"
#include "results/merging/repeats.h"

namespace openloop::procedures {
namespace {

using report::html::escape;

std::optional<double> ms(const std::optional<std::int64_t>& ns) {
  return ns ? std::optional<double>(static_cast<double>(*ns) / 1e6) : std::nullopt;
}

report::KneeChart knee_chart(const RampOutcome& o) {
  report::KneeChart c;
  for (const auto& s : o.steps) {
    const StepAnalysis& a = s.analysis;
    report::KneePoint p;
    p.step = s.number;
    p.offered = a.window.offered_rps;
    p.completed = a.completed_rps;
    p.goodput = a.goodput_rps;
    if (a.latency[2].count > 0) p.p99_ms = static_cast<double>(a.latency[2].value) / 1e6;
    p.p99_low_ms = ms(a.latency[2].low);
    p.p99_high_ms = ms(a.latency[2].high);
    p.censored = a.p99_censored;
    p.state = to_string(a.state);
    c.points.push_back(p);
  }
  const RampFindings& f = o.findings;
  const auto mark = [&](const char* label, const std::optional<std::size_t>& i) {
    if (i) c.markers.push_back({label, o.steps[*i].analysis.window.offered_rps});
  };
  mark("knee p99", f.knee_latency);
  mark("knee goodput", f.knee_goodput);
  mark("capacity", f.capacity);
  mark("collapse", f.collapse);
  return c;
}

std::string cell(const std::string& text) {
  return "<td>" + escape(text) + "</td>";
}

std::string step_table(const RampOutcome& o) {
  std::string rows;
  for (const std::size_t i : steps_by_offered(o)) {
    const StepRecord& s = o.steps[i];
    const StepAnalysis& a = s.analysis;
    const stats::QuantileEstimate& q = a.latency[2];
    const auto bound = [](const std::optional<std::int64_t>& v) {
      return v ? format_ms(static_cast<double>(*v) / 1e6) : std::string("?");
    };
    std::string marks;
    for (const auto& m : step_marks(o, i)) marks += (marks.empty() ? "" : ", ") + m;
    std::string slo = a.state == StepState::invalid ? "–" : s.slos_met ? "met" : "not met";
    for (const auto& r : s.slos) {
      if (a.state == StepState::invalid || r.met) continue;
      slo = "✗ " + r.slo.text + " (" + r.measured_text + ")";
      break;
    }
    rows +=
        "<tr>" + cell(std::to_string(s.number)) + cell(fmt::format("{:.0f}/s", a.window.offered_rps)) +
        cell(report::format_per_second(a.completed_of_arrivals_rps)) +
        cell(report::format_per_second(a.goodput_rps)) + cell(report::format_per_second(a.completed_rps)) +
        cell(q.count == 0
                 ? "–"
                 : fmt::format("{}{} [{}, {}]", a.p99_censored ? "≥" : "",
                               format_ms(static_cast<double>(q.value) / 1e6), bound(q.low), bound(q.high))) +
        cell(std::to_string(a.results.totals.dropped)) +
        cell(std::to_string(a.results.totals.errors_total())) +
        cell(std::to_string(a.results.totals.timeouts)) + cell(to_string(a.state)) + cell(slo) + cell(marks) +
        "</tr>\n";
  }
  return "<section class=\"panel\"><h2>Steps</h2>\n<table "
         "class=\"numbers\"><thead><tr><th>step</th><th>offered</th>"
         "<th>completed</th><th>goodput</th><th>resp/s</th><th>p99 ms [95% "
         "CI]</th><th>dropped</th><th>errors</th><th>timeouts</th>"
         "<th>state</th><th>SLO</th><th>mark</th></tr></thead>\n<tbody>\n" +
         rows +
         "</tbody></table>\n<p class=\"caption\">completed and goodput count the step's own requests (by "
         "intended time) that got a response / succeeded within the deadline, per second, so goodput never "
         "exceeds completed; resp/s counts the responses that arrived while the step ran (wall clock), "
         "whichever step's requests they answered: the chart's throughput.</p>\n</section>\n";
}

// --repeat: a row per step with each percentile's spread across its repeats and the repeat it is judged on.
std::string repeats_table(const RampOutcome& o) {
  std::string rows;
  for (const std::size_t i : steps_by_offered(o)) {
    const StepRecord& s = o.steps[i];
    if (s.repeats.empty()) continue;
    std::string spread_cells;
    for (const auto& p : s.spreads) {
      const results::MedianInterval& m = p.across;
      spread_cells += cell(fmt::format("{} ({} – {}) [{}, {}] {:.0f} %", format_ms(m.median / 1e6),
                                       format_ms(m.min / 1e6), format_ms(m.max / 1e6), format_ms(m.low / 1e6),
                                       format_ms(m.high / 1e6), 100 * m.confidence));
    }
    rows += "<tr>" + cell(std::to_string(s.number)) +
            cell(fmt::format("{:.0f}/s", s.analysis.window.offered_rps)) +
            cell(fmt::format("{} of {}", s.repeats.size(), s.repeat_set.planned)) + spread_cells +
            cell(fmt::format("#{}", s.judged_on + 1)) +
            cell(results::variation_dominates(s.spreads) ? results::k_variation_flag : "–") +
            cell(s.disagreement.empty() ? "agree" : s.disagreement) + "</tr>\n";
  }
  if (rows.empty()) return {};
  return "<section class=\"panel\"><h2>Repeats</h2>\n<table class=\"numbers\"><thead><tr><th>step</th>"
         "<th>offered</th><th>repeats</th><th>p50 ms</th><th>p90 ms</th><th>p99 ms</th><th>p99.9 ms</th>"
         "<th>judged on</th><th>variation</th><th>verdicts</th></tr></thead>\n<tbody>\n" +
         rows +
         "</tbody></table>\n<p class=\"caption\">Each percentile across the step's repeats: median (min – "
         "max) [interval for the median, its coverage]. A step is judged on its upper median repeat by p99 "
         "(INVALID repeats ranked last); the step table and the chart show that repeat.</p>\n</section>\n";
}

// Between the ramp's own sections and the run report below them, so the run's verdict is read as the run's.
std::string run_heading(const RampOutcome& o, const RampSettings& s) {
  const bool staircase = o.runs.size() >= 1 && !s.fresh;
  return std::string("<section class=\"panel\"><h2>") +
         (staircase ? "The staircase run, second by second" : "The last step's run, second by second") +
         "</h2>\n<p>What follows is the report of one run as a whole. Its verdict applies the run's bounds "
         "to the "
         "whole run at once, every step together; the steps above are judged each on its own window.</p>\n"
         "</section>\n";
}

std::string findings_section(const RampOutcome& o, const RampSettings& s) {
  std::string notes;
  if (!o.stopped.empty()) notes += "<li>Stopped: " + escape(o.stopped) + ".</li>\n";
  if (o.interrupted) notes += "<li>Interrupted by a signal: the steps judged before it are shown.</li>\n";
  if (s.default_slo)
    notes += "<li>No --slo given: a step passes when steady with goodput ≥ 99% of its arrivals.</li>\n";
  for (const auto& n : o.notes) notes += "<li>" + escape(n) + ".</li>\n";
  for (const auto& step : o.steps) {
    for (const auto& u : step.until) {
      notes += fmt::format("<li>--step-until, step {} (held {:.1f} s): {}.</li>\n", step.number,
                           step.analysis.results.measured_s, escape(u.sentence()));
    }
  }
  return "<section class=\"panel\"><h2>Findings</h2>\n<p><b>" +
         escape(findings_sentence(o.steps, o.findings)) + "</b></p>\n" +
         (notes.empty() ? "" : "<ul>\n" + notes + "</ul>\n") + "</section>\n";
}

}  // namespace

std::string render_ramp_html(const RampOutcome& o, const RampSettings& s, const std::string& source) {
  report::ReportInput in;
  in.source = source;
  if (!o.runs.empty()) in.results = s.fresh ? o.runs.back() : o.runs.front();
  report::HtmlExtras extras;
  extras.title = "Ramp report: knee and capacity";
  extras.lead_html = findings_section(o, s) + report::knee_panel(knee_chart(o)) + step_table(o) +
                     repeats_table(o) + run_heading(o, s);
  extras.script = std::string(report::knee_script());
  return report::render_html(in, extras);
}

}  // namespace openloop::procedures
