// Breakdown tables of the HTML report: by scenario, by request, sessions; every number from the results.
#include "report/html/html_breakdown.h"

#include <vector>

#include <fmt/format.h>

#include "core/units.h"
#include "report/html/html_sections.h"
#include "report/text_format.h"
#include "results/flow_steps.h"

namespace openloop::report::html {
namespace {

using results::Counters;
using results::LatencySummary;
using results::RunResults;

// Per second, the unit in the column's header.
std::string per_second(std::uint64_t n, double seconds) {
  return fmt::format("{:.1f}", seconds > 0 ? static_cast<double>(n) / seconds : 0.0);
}

/// One row of a breakdown table: a scope of the run and what happened to its requests.
struct Row {
  std::string scope;  ///< "scenario:browse", "scenario:browse/request:get_item", "request:search", "total"
  std::string name;   ///< as shown
  std::string model;  ///< scenarios only, shown under the name
  const Counters* counts = nullptr;
  double measured_s = 0;
  LatencySummary response_time;
  const results::Verdict* verdict = nullptr;  ///< scenarios only
  bool sum = false;                           ///< the combined row under the parts
};

std::string header_row(const char* what, bool scenarios) {
  std::string out = fmt::format("<tr><th>{}</th>", what);
  out +=
      "<th>offered /s</th><th>sent /s</th><th>through&shy;put /s</th><th>goodput /s</th><th>intended</th>"
      "<th>ok</th>"
      "<th>error "
      "status</th><th>time&shy;outs</th><th>errors</th><th>drop&shy;ped</th><th>un&shy;fin&shy;ished</th>"
      "<th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>max</th>";
  if (scenarios) out += "<th>verdict</th>";
  return out + "</tr>\n";
}

std::string row_html(const Row& row) {
  const Counters& c = *row.counts;
  std::string out = fmt::format(
      "<tr{} data-scope=\"{}\" data-intended=\"{}\" data-sent=\"{}\" data-completed=\"{}\" data-ok=\"{}\" "
      "data-timeouts=\"{}\" data-errors=\"{}\" data-dropped=\"{}\" data-unfinished=\"{}\"><th>{}",
      row.sum ? " class=\"sum\"" : "", escape(row.scope), c.intended, c.sent, c.completed, c.ok, c.timeouts,
      c.errors_total(), c.dropped, c.unfinished, escape(row.name));
  // A scenario's model goes under its name: one column less, so the table fits the page.
  if (row.verdict != nullptr) out += fmt::format("<div class=\"sub\">{}</div>", escape(row.model));
  out += "</th>";
  out += fmt::format(
      "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
      "<td>{}</td><td>{}</td>",
      per_second(c.intended, row.measured_s), per_second(c.sent, row.measured_s),
      per_second(c.completed, row.measured_s), per_second(c.ok, row.measured_s), c.intended, c.ok,
      c.completed - c.ok, c.timeouts, c.errors_total(), c.dropped, c.unfinished);
  const LatencySummary& s = row.response_time;
  if (s.count == 0) {
    out += "<td colspan=\"5\" class=\"text\">no samples</td>";
  } else {
    out += fmt::format("<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>", format_latency(s.p50),
                       format_latency(s.p90), format_latency(s.p99), format_latency(s.p999),
                       format_latency(s.max));
  }
  if (row.verdict != nullptr) {
    std::string reasons;
    for (const auto& reason : row.verdict->reasons) reasons += (reasons.empty() ? "" : "; ") + reason;
    out += fmt::format("<td class=\"text{}\" title=\"{}\">{}</td>", row.verdict->valid ? "" : " bad",
                       escape(reasons), row.verdict->valid ? "VALID" : "INVALID");
  }
  return out + "</tr>\n";
}

std::string table(const char* what, const std::vector<Row>& rows, bool scenarios) {
  std::string out = "<div class=\"scroll\"><table class=\"breakdown\">\n" + header_row(what, scenarios);
  for (const Row& row : rows) out += row_html(row);
  return out + "</table></div>\n";
}

// The requests a run sent (those of its breakdown with at least one intended), as rows under `prefix`.
std::vector<Row> request_rows(const RunResults& r, const std::string& prefix) {
  std::vector<Row> rows;
  for (std::size_t q = 0; q < r.by_request.size(); ++q) {
    const results::RequestTotals& t = r.by_request[q];
    if (t.counters.intended == 0) continue;
    const std::string& name = q < r.info.request_names.size() ? r.info.request_names[q] : t.name;
    Row row;
    row.scope = prefix + "request:" + name;
    row.name = name;
    row.counts = &t.counters;
    row.measured_s = r.measured_s;
    row.response_time = LatencySummary::of(t.response_time);
    rows.push_back(std::move(row));
  }
  return rows;
}

Row run_row(const RunResults& r, std::string scope, std::string name, bool sum) {
  Row row;
  row.scope = std::move(scope);
  row.name = std::move(name);
  row.model = to_string(r.info.model);
  row.counts = &r.totals;
  row.measured_s = r.measured_s;
  row.response_time = LatencySummary::of(r.response_time);
  row.verdict = &r.verdict;
  row.sum = sum;
  return row;
}

constexpr std::string_view k_columns_caption =
    "Rates are per second of each row's own measured period; counts are of the requests intended in it; "
    "latencies are response times (from each request's intended time), from that row's own histograms, "
    "never averaged.";

std::string session_row(const std::string& scope, const std::string& name, const RunResults& r, bool sum) {
  const auto& f = r.flows;
  const LatencySummary st = LatencySummary::of(r.session_time);
  std::string out = fmt::format(
      "<tr{} data-sessions-of=\"{}\" data-sessions-intended=\"{}\" data-sessions-completed=\"{}\"><th>{}</th>"
      "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
      sum ? " class=\"sum\"" : "", escape(scope), f.sessions_intended, f.sessions_completed, escape(name),
      f.sessions_intended, f.sessions_completed, f.sessions_failed, f.sessions_dropped,
      f.sessions_unfinished);
  if (st.count == 0) return out + "<td colspan=\"5\" class=\"text\">no session ended</td></tr>\n";
  return out + fmt::format("<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                           format_latency(st.p50), format_latency(st.p90), format_latency(st.p99),
                           format_latency(st.p999), format_latency(st.max));
}

// One flow's steps (results/flow_steps.h) and, under them, the flow's own time (session intended start to
// its last response), as one table.
std::string steps_table(const RunResults& r, const std::string& prefix) {
  std::string out =
      "<div class=\"scroll\"><table class=\"breakdown\">\n<tr><th>step</th><th>intended</th><th>ok</th>"
      "<th>not ok</th><th>time&shy;outs</th><th>errors</th><th>drop&shy;ped</th><th>un&shy;fin&shy;ished</th>"
      "<th>captures failed</th><th>checks failed</th><th>stopped</th><th>p50</th><th>p90</th><th>p99</th>"
      "<th>p99.9</th><th>max</th></tr>\n";
  for (const results::FlowStep& s : results::flow_steps(r)) {
    const Counters c = s.counters != nullptr ? *s.counters : Counters{};
    const LatencySummary rt =
        s.response_time != nullptr ? LatencySummary::of(*s.response_time) : LatencySummary{};
    out += fmt::format(
        "<tr data-scope=\"{}step:{}\" data-intended=\"{}\" data-ok=\"{}\" data-completed=\"{}\" "
        "data-timeouts=\"{}\" data-errors=\"{}\" data-dropped=\"{}\" data-unfinished=\"{}\"><th>{} {}{}</th>"
        "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
        "<td>{}</td>",
        escape(prefix), s.step, c.intended, c.ok, c.completed, c.timeouts, c.errors_total(), c.dropped,
        c.unfinished, s.step, escape(s.request), s.shared ? " *" : "", c.intended, c.ok, c.completed - c.ok,
        c.timeouts, c.errors_total(), c.dropped, c.unfinished, s.failures.captures_failed,
        s.failures.checks_failed, s.failures.stopped);
    out += rt.count == 0 ? "<td colspan=\"5\" class=\"text\">no samples</td></tr>\n"
                         : fmt::format("<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                                       format_latency(rt.p50), format_latency(rt.p90), format_latency(rt.p99),
                                       format_latency(rt.p999), format_latency(rt.max));
  }
  const auto& f = r.flows;
  const LatencySummary st = LatencySummary::of(r.session_time);
  if (r.info.model == results::Model::sessions) {
    out += fmt::format(
        "<tr class=\"sum\" data-scope=\"{}flow\"><th>the flow</th><td colspan=\"10\" class=\"text\">sessions "
        "intended {}, completed {}, failed {} (stopped by a step {}), dropped {}, unfinished {}</td>",
        escape(prefix), f.sessions_intended, f.sessions_completed, f.sessions_failed, f.stopped,
        f.sessions_dropped, f.sessions_unfinished);
    out += st.count == 0 ? "<td colspan=\"5\" class=\"text\">no session ended</td></tr>\n"
                         : fmt::format("<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                                       format_latency(st.p50), format_latency(st.p90), format_latency(st.p99),
                                       format_latency(st.p999), format_latency(st.max));
  }
  return out + "</table></div>\n";
}

}  // namespace

std::string steps_section(const ReportInput& in) {
  const RunResults& r = in.results;
  if (!in.has_counts) return {};
  std::string tables;
  if (!results::flow_steps(r).empty()) tables += steps_table(r, "");
  for (const auto& part : r.scenarios) {
    if (r.scenarios.size() < 2 || results::flow_steps(part.results).empty()) continue;
    tables += fmt::format("<h3>Scenario {}</h3>\n", escape(part.name)) +
              steps_table(part.results, "scenario:" + part.name + "/");
  }
  if (tables.empty()) return {};
  return "<section class=\"panel\" id=\"steps\"><h2>Flow steps</h2>\n" + tables +
         "<p class=\"caption\">Each step of the flow on its own: its request's counts and response "
         "times, measured from the step's due time (the previous step's response plus its think; the first "
         "step from the session's intended start), never averaged. <b>Not ok</b>: a status outside the "
         "success range or a failed capture or check. A step marked * sends a request another step sends "
         "too: they share its numbers. The flow's time runs from the session's intended start to its last "
         "response (completed sessions).</p>\n</section>\n";
}

std::string scenarios_section(const ReportInput& in) {
  const RunResults& r = in.results;
  if (!in.has_counts || r.scenarios.size() < 2) return {};
  std::vector<Row> rows;
  for (const auto& part : r.scenarios)
    rows.push_back(run_row(part.results, "scenario:" + part.name, part.name, false));
  rows.push_back(run_row(r, "total", "all scenarios", true));
  std::string out = "<section class=\"panel\" id=\"scenarios\"><h2>By scenario</h2>\n";
  out += table("scenario", rows, true);
  out += fmt::format(
      "<p class=\"caption\">Each scenario of {} on its own, then all of them together (counts and "
      "histograms added, intervals aligned by each scenario's start). {} A closed or pacing scenario's "
      "latency is its service time: it waits for each response before sending again.</p>\n",
      escape(r.info.source.empty() ? std::string("the plan") : r.info.source), k_columns_caption);
  for (const auto& part : r.scenarios) {
    const std::vector<Row> requests = request_rows(part.results, "scenario:" + part.name + "/");
    if (requests.size() < 2) continue;
    out += fmt::format("<h3>Scenario {}: by request</h3>\n", escape(part.name));
    out += table("request", requests, false);
  }
  return out + "</section>\n";
}

std::string requests_section(const ReportInput& in) {
  const RunResults& r = in.results;
  const std::vector<Row> rows = request_rows(r, "");
  if (!in.has_counts || rows.size() < 2) return {};
  std::string out = "<section class=\"panel\" id=\"requests\"><h2>By request</h2>\n";
  out += table("request", rows, false);
  return out +
         fmt::format(
             "<p class=\"caption\">Each named request of the plan on its own{}; the totals above are the "
             "same requests together. {} Requests never sent are left out.</p>\n</section>\n",
             r.scenarios.size() > 1 ? ", summed over every scenario that sends it" : "", k_columns_caption);
}

std::string sessions_section(const ReportInput& in) {
  const RunResults& r = in.results;
  if (!in.has_counts || r.flows.sessions_intended == 0) return {};
  std::string rows;
  std::size_t parts = 0;
  if (r.scenarios.size() > 1) {
    for (const auto& part : r.scenarios) {
      if (part.results.flows.sessions_intended == 0) continue;
      rows += session_row("scenario:" + part.name, part.name, part.results, false);
      ++parts;
    }
  }
  rows += session_row("total", parts > 0 ? "all scenarios" : "the run", r, parts > 0);
  return "<section class=\"panel\" id=\"sessions\"><h2>Sessions</h2>\n<div class=\"scroll\"><table "
         "class=\"breakdown\">\n<tr><th>sessions of</th><th>intended</th><th>completed</th><th>failed</th>"
         "<th>dropped</th><th>unfinished</th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>max</th>"
         "</tr>\n" +
         rows +
         "</table></div>\n<p class=\"caption\">A session arrives on the schedule and runs its steps in "
         "order, "
         "each waiting for the previous response. <b>Failed</b>: a step failed (error, timeout or "
         "non-success status) and the user left; <b>dropped</b>: the concurrent-sessions cap was reached; "
         "intended = completed + failed + dropped + unfinished. Session time runs from the session's "
         "intended "
         "start to its end.</p>\n</section>\n";
}

}  // namespace openloop::report::html
