// A trace's inspection as a standalone HTML page (cli/trace_html.h).
#include "cli/trace_html.h"

#include <fmt/format.h>

#include "report/html/assets.h"
#include "report/html/page.h"
#include "report/text_format.h"

namespace openloop::cli {
namespace {

using report::html::escape;

// Draws the rate per second from the embedded series.
constexpr std::string_view k_chart_js = R"JS((function () {
  'use strict';
  var el = document.getElementById('rate-chart');
  var d = JSON.parse(document.getElementById('openloop-trace-data').textContent);
  if (!el || d.rate.length === 0) return;
  var t = d.rate.map(function (v, i) { return i; });
  var opts = {
    width: Math.max(320, Math.floor(el.getBoundingClientRect().width)), height: 320,
    scales: { x: { time: false }, y: { range: function (u, mn, mx) { return [0, Math.max(1, mx * 1.1)]; } } },
    series: [
      { label: 'second', value: function (u, v) { return v == null ? 'hover the chart' : v + ' s'; } },
      { label: 'records per second', stroke: '#2f7ed8', width: 2, points: { show: false } }
    ],
    axes: [{ label: 'seconds since the first record' }, { label: 'records per second' }]
  };
  new uPlot(opts, [t, d.rate], el);
  document.documentElement.setAttribute('data-trace-chart-drawn', '1');
})();)JS";

constexpr std::string_view k_page_css = R"CSS(
.chart { min-height: 320px; }
table.numbers td.n { text-align: right; font-variant-numeric: tabular-nums; }
)CSS";

// A JSON value as a table cell: numbers as JSON writes them (so a reader can compare them), null as "–".
std::string cell(const nlohmann::json& v) {
  if (v.is_null()) return "<td class=\"n\">–</td>";
  if (v.is_string()) return "<td>" + escape(v.get<std::string>()) + "</td>";
  return "<td class=\"n\">" + escape(v.dump()) + "</td>";
}

std::string row(std::string_view name, const nlohmann::json& v, std::string_view id) {
  return fmt::format("<tr id=\"{}\"><th>{}</th>{}</tr>\n", id, escape(name), cell(v));
}

std::string summary_section(const nlohmann::json& j) {
  std::string out = "<section class=\"panel\"><h2>The trace</h2>\n<table class=\"numbers\" id=\"summary\">\n";
  out += row("records", j.at("records"), "records");
  out += row("span (s)", j.at("span_s"), "span_s");
  out += row("mean rate (records/s)", j.at("mean_rate_per_s"), "mean_rate_per_s");
  out += row("index of dispersion (per-second counts: 1 Poisson, below paced, above bursty)", j.at("dispersion"),
             "dispersion");
  out += row("one-second stamps spread by the seed", j.at("seconds_spread"), "seconds_spread");
  out += row("records past the rate series' last second", j.at("records_beyond_series"), "records_beyond_series");
  out += row("bad lines skipped", j.value("skipped_lines", nlohmann::json()), "skipped_lines");
  out += row("lines without a request", j.value("empty_request_lines", nlohmann::json()), "empty_request_lines");
  return out + "</table></section>\n";
}

std::string endpoints_section(const nlohmann::json& j) {
  const double records = j.at("records").get<double>();
  std::string out =
      "<section class=\"panel\"><h2>Endpoints</h2><p class=\"caption\">Method and path, numbers and ids as "
      "placeholders, by records.</p>\n<table class=\"numbers\" id=\"endpoints\">\n<tr><th>endpoint</th>"
      "<th>records</th><th>share</th></tr>\n";
  for (const auto& e : j.at("endpoints")) {
    const double n = e.at("records").get<double>();
    out += fmt::format("<tr>{}{}<td class=\"n\">{:.4f}</td></tr>\n", cell(e.at("endpoint")), cell(e.at("records")),
                       records > 0 ? n / records : 0.0);
  }
  if (j.at("other_endpoint_records").get<std::uint64_t>() > 0)
    out += "<tr><td>(other endpoints)</td>" + cell(j.at("other_endpoint_records")) + "<td></td></tr>\n";
  return out + "</table></section>\n";
}

std::string sizes_section(const nlohmann::json& j) {
  std::string out =
      "<section class=\"panel\"><h2>Payload sizes</h2><p class=\"caption\">Percentiles are upper bounds of "
      "power-of-two buckets.</p>\n<table class=\"numbers\" id=\"sizes\">\n<tr><th></th><th>records</th>"
      "<th>mean (B)</th><th>p50 at most (B)</th><th>p99 at most (B)</th><th>max (B)</th></tr>\n";
  for (const auto& [key, name] : {std::pair{"request_bodies", "request bodies"},
                                  std::pair{"response_bodies", "response bodies (when logged)"}}) {
    const nlohmann::json& s = j.at(key);
    out += fmt::format("<tr id=\"{}\"><th>{}</th>", key, name);
    for (const char* field : {"count", "mean_bytes", "p50_at_most_bytes", "p99_at_most_bytes", "max_bytes"})
      out += cell(s.is_null() ? nlohmann::json() : s.at(field));
    out += "</tr>\n";
  }
  return out + "</table></section>\n";
}

std::string statuses_section(const nlohmann::json& j) {
  std::string out = "<section class=\"panel\"><h2>Statuses</h2>\n";
  if (j.at("statuses").empty()) return out + "<p class=\"caption\">Not logged.</p></section>\n";
  out += "<table class=\"numbers\" id=\"statuses\">\n<tr><th>status</th><th>records</th></tr>\n";
  for (const auto& [status, n] : j.at("statuses").items()) out += "<tr>" + cell(status) + cell(n) + "</tr>\n";
  return out + "</table></section>\n";
}

std::string keys_section(const nlohmann::json& j) {
  std::string out =
      "<section class=\"panel\"><h2>Key popularity</h2><p class=\"caption\">Each id in a path and each "
      "--key-param: distinct keys and the Zipf law fitted to their ranked counts (exponent s by maximum "
      "likelihood, N the keys seen).</p>\n";
  const nlohmann::json keys = j.value("keys", nlohmann::json::array());
  if (keys.empty()) return out + "<p class=\"caption\">No varying key.</p></section>\n";
  out += "<table class=\"numbers\" id=\"keys\">\n<tr><th>endpoint</th><th>place</th><th>records</th><th>distinct "
         "keys</th><th>Zipf s</th><th>N</th><th>KS distance</th><th>hottest 1 % share</th></tr>\n";
  for (const auto& k : keys) {
    const nlohmann::json& z = k.at("zipf");
    out += "<tr>" + cell(k.at("endpoint")) + cell(k.at("place")) + cell(k.at("records")) +
           cell(k.at("distinct_keys"));
    for (const char* field : {"s", "n", "ks_distance", "top_1pct_share"})
      out += cell(z.is_null() ? nlohmann::json() : z.at(field));
    out += "</tr>\n";
  }
  return out + "</table></section>\n";
}

}  // namespace

std::string render_trace_html(const nlohmann::json& j) {
  const std::string file = j.at("file").get<std::string>();
  std::string page = report::html::page_head("openloop trace: " + file, k_page_css) + "<body>\n";
  page += fmt::format(
      "<header><div class=\"brand\">openloop trace inspect</div><h1>{}</h1><p class=\"facts\">{} records · "
      "{:.3f} s · {:.4g} records/s</p></header>\n<main>\n",
      escape(file), j.at("records").get<std::uint64_t>(), j.at("span_s").get<double>(),
      j.at("mean_rate_per_s").get<double>());
  page += "<section class=\"panel\"><h2>Rate over time</h2><div id=\"rate-chart\" class=\"chart\"></div>"
          "<p class=\"caption\">Records per second of the trace's own clock, from its first record's second "
          "(the whole series, as in --json's rate_per_second).</p><noscript><p>The chart needs JavaScript; the "
          "series is in the page's data.</p></noscript></section>\n";
  page += summary_section(j) + endpoints_section(j) + sizes_section(j) + statuses_section(j) + keys_section(j);
  // Numbers only: nothing from the trace's text goes into the script element.
  page += "</main>\n<script type=\"application/json\" id=\"openloop-trace-data\">" +
          nlohmann::json{{"rate", j.at("rate_per_second")}}.dump() + "</script>\n";
  page += fmt::format("<script>{}</script>\n<script>{}</script>\n</body>\n</html>\n", report::assets::uplot_js(),
                      k_chart_js);
  return page;
}

}  // namespace openloop::cli
