// The HTML page: head (CSP, error trap, styles), server-rendered sections, chart panels with captions, data,
// scripts.
#include "report/html/html.h"

#include <cmath>
#include <ctime>

#include <fmt/format.h>

#include "core/units.h"
#include "report/html/assets.h"
#include "report/html/html_breakdown.h"
#include "report/html/html_observed.h"
#include "report/html/html_checks.h"
#include "report/html/html_repeats.h"
#include "report/html/html_sections.h"
#include "report/html/page.h"
#include "report/text_format.h"

namespace openloop::report {
namespace {

using html::escape;

struct Chart {
  const char* id;
  const char* title;
  const char* caption;
};

constexpr Chart k_latency_chart{"chart-latency", "Response time, second by second",
                                "Each point is one second of the run and describes the requests that were "
                                "<i>due</i> in that second. The lines "
                                "are the response time that 50%, 90% and 99% of them stayed under, and the "
                                "slowest one (max); the left axis is "
                                "logarithmic. Dashed, on the right axis: the rate the schedule offered and "
                                "the rate actually sent. If those two "
                                "part, the generator fell behind its own schedule. A stall shows as a spike "
                                "on every line at once: everyone who "
                                "arrived during it waited."};
constexpr Chart k_throughput_chart{
    "chart-throughput", "Throughput and goodput",
    "Of the requests due in each second: how many completed per second with any status (throughput) and how "
    "many "
    "succeeded within the client's deadline (goodput), against the offered rate. Past a service's capacity, "
    "throughput stops following the offered rate; goodput below throughput means answers were errors or too "
    "late."};
constexpr Chart k_outcomes_chart{"chart-outcomes", "What happened to the requests of each second",
                                 "Stacked counts per second of intended time: ok, error statuses, errors (no "
                                 "usable response), timeouts, requests "
                                 "dropped by the generator (no free connection, never sent) and unfinished "
                                 "ones. Everything above the green part "
                                 "is a request that was not served well."};
constexpr Chart k_spectrum_chart{
    "chart-spectrum", "The whole distribution: response time vs service time",
    "Read from left to right, from common to rare: at 90% one request in 10 was slower than the line, at 99% "
    "one in "
    "100, at 99.9% one in 1,000 (both axes logarithmic). <b>Red</b> is response time, from when each request "
    "was due; "
    "<b>blue</b> is service time, from when it was actually sent. The shaded gap between them is time "
    "requests spent inside openloop before their send: the generator's own send lateness, or a client-side "
    "queue when every connection was busy. It is not the server's queue: an open-model generator keeps "
    "sending on schedule, so a stalled or busy server delays both lines alike. A closed-loop tool goes wrong "
    "elsewhere: it stops sending while the server is slow, so the requests that would have waited are never "
    "sent and never measured (<b>coordinated omission</b>); a closed run beside an open one shows it."};

std::string chart_panel(const Chart& c) {
  return fmt::format(
      "<section class=\"panel chart\"><h2>{}</h2>\n<div class=\"plot\" id=\"{}\"></div>\n"
      "<p class=\"caption\">{}</p>\n</section>\n",
      c.title, c.id, c.caption);
}

std::string utc(double unix_s) {
  const auto seconds = static_cast<std::time_t>(std::floor(unix_s));
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02} UTC", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                     tm.tm_hour, tm.tm_min, tm.tm_sec);
}

std::string model_fact(results::Model model) {
  switch (model) {
    case results::Model::closed:
      return "CLOSED model";
    case results::Model::pacing:
      return "PACING model";
    case results::Model::sessions:
      return "PARTLY OPEN model (sessions)";
    case results::Model::mixed:
      return "MIXED models (scenarios)";
    case results::Model::unknown:
      return "model not recorded";
    case results::Model::open:
      break;
  }
  return "OPEN model";
}

std::string header(const ReportInput& in, const std::string& title) {
  const auto& r = in.results;
  std::string facts;
  const auto add = [&](const std::string& fact) { facts += (facts.empty() ? "" : " · ") + escape(fact); };
  if (!r.info.target.empty()) add(r.info.target);
  if (r.info.start_unix_s > 0) add("started " + utc(r.info.start_unix_s));
  add("measured " + format_duration(from_seconds(r.measured_s)));
  if (in.has_counts) add(model_fact(r.info.model));
  add("from " + in.source);
  return fmt::format(
      "<header><div class=\"brand\">openloop</div><h1>{}</h1>\n<p class=\"facts\">{}</p>"
      "</header>\n",
      escape(title.empty() ? std::string("Load test report") : title), facts);
}

std::string head(const ReportInput& in) {
  const auto& r = in.results;
  const std::string verdict = !in.has_counts ? "latencies" : (r.verdict.valid ? "VALID" : "INVALID");
  return html::page_head(
      fmt::format("openloop report: {} {}", verdict, r.info.target.empty() ? in.source : r.info.target));
}

std::string glossary() {
  return "<section class=\"panel glossary\"><h2>Reading this report</h2>\n<dl>\n"
         "<dt>Open model</dt><dd>Requests arrive on a schedule whatever the server does, as real users do. "
         "The "
         "opposite, a closed loop, waits for each response before sending the next request, so it slows down "
         "with "
         "the server and hides its worst moments.</dd>\n"
         "<dt>Intended time</dt><dd>When the schedule said a request was due. Latency is measured from it, "
         "so a "
         "request that had to wait for the generator or a connection still counts its wait.</dd>\n"
         "<dt>Verdict</dt><dd>VALID when the generator really applied the planned load (under 1% dropped, at "
         "least "
         "99% sent, sends on time, generator CPU not saturated); otherwise INVALID, with the reasons.</dd>\n"
         "<dt>Percentiles</dt><dd>Computed from full HdrHistograms (3 significant digits), never averaged: "
         "runs and "
         "intervals are merged by adding histograms.</dd>\n</dl>\n</section>\n";
}

std::string data_script(const ReportInput& in) {
  std::string json = chart_data(in).dump();
  // '<' only occurs inside JSON strings, where \u003c is the same character: no "</script>" can end the
  // block.
  std::string safe;
  safe.reserve(json.size());
  for (const char c : json) {
    if (c == '<') {
      safe += "\\u003c";
    } else {
      safe += c;
    }
  }
  return "<script type=\"application/json\" id=\"openloop-data\">" + safe + "</script>\n";
}

std::string footer(const ReportInput& in) {
  const auto& env = in.results.info.environment;
  const std::string version =
      env.is_object() && env.contains("openloop_version") && env["openloop_version"].is_string()
          ? " " + env["openloop_version"].get<std::string>()
          : "";
  return fmt::format(
      "<footer>openloop{} · {} · charts drawn with uPlot (MIT), embedded: this page makes no network "
      "requests</footer>\n",
      escape(version), in.has_counts ? "results schema openloop.results/1" : "HdrHistogram interval log");
}

}  // namespace

std::string render_html(const ReportInput& in) {
  return render_html(in, HtmlExtras{});
}

std::string render_html(const ReportInput& in, const HtmlExtras& extras) {
  std::string page = head(in);
  page += "<body>\n" + header(in, extras.title) + "<main>\n" + extras.lead_html;
  page += html::verdict_section(in);
  page += html::slo_section(in);
  page += html::headline_section(in);
  page += html::scenarios_section(in);
  page += html::plan_and_outcomes_section(in);
  page += html::latency_section(in);
  page += html::checks_section(in);
  page += html::repeats_section(in);
  page += html::phases_section(in);
  page += html::server_timing_section(in);
  page += html::requests_section(in);
  page += html::sessions_section(in);
  page += html::steps_section(in);
  page +=
      "<noscript><p class=\"panel\">The charts need JavaScript; the tables above hold every "
      "number.</p></noscript>\n";
  page += chart_panel(k_latency_chart);
  if (in.has_counts) {
    page += chart_panel(k_throughput_chart);
    page += chart_panel(k_outcomes_chart);
  }
  page += observed_panels(in.results);
  page += chart_panel(k_spectrum_chart);
  page += glossary();
  page += "</main>\n" + footer(in);
  page += data_script(in);
  page += fmt::format("<script>{}</script>\n<script>{}</script>\n", assets::uplot_js(), assets::report_js());
  if (!extras.script.empty()) page += "<script>" + extras.script + "</script>\n";
  page += "</body>\n</html>\n";
  return page;
}

}  // namespace openloop::report
