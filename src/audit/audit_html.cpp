// The audit's HTML page: its sections, the feedback chart's data and the script that draws it.
#include "audit/audit_html.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/units.h"
#include "report/html/assets.h"
#include "report/html/page.h"
#include "report/text_format.h"

namespace openloop::audit {
namespace {

using report::html::escape;

// Draws the feedback chart: sends per second (left axis) and p99 by send time (right axis, log), per bin.
constexpr std::string_view k_chart_js = R"JS((function () {
  'use strict';
  var el = document.getElementById('feedback-chart');
  if (!el) return;
  var d = JSON.parse(document.getElementById('openloop-audit-data').textContent);
  function fmtMs(v) { return v == null ? '–' : v < 1 ? +(v * 1000).toPrecision(3) + ' µs' : v < 1000 ? +v.toPrecision(3) + ' ms' : +(v / 1000).toPrecision(3) + ' s'; }
  function fmtRate(v) { return v == null ? '–' : +v.toPrecision(4) + '/s'; }
  var opts = {
    width: Math.max(320, Math.floor(el.getBoundingClientRect().width)), height: 340,
    scales: { x: { time: false }, rate: { range: function (u, mn, mx) { return [0, Math.max(1, mx * 1.1)]; } }, ms: { distr: 3 } },
    series: [
      { label: 'sent at', value: function (u, v) { return v == null ? 'hover the chart' : v.toFixed(2) + ' s'; } },
      { label: 'sends per second', stroke: '#2f7ed8', width: 2, scale: 'rate', points: { show: false }, value: function (u, v) { return fmtRate(v); } },
      { label: 'p99 of those sends', stroke: '#d62d20', width: 2, scale: 'ms', spanGaps: false, points: { show: false }, value: function (u, v) { return fmtMs(v); } }
    ],
    axes: [
      { label: 'seconds since the first send' },
      { scale: 'rate', label: 'sends per second', values: function (u, vs) { return vs.map(function (v) { return +v.toPrecision(4); }); } },
      { scale: 'ms', side: 1, label: 'p99 (ms, log)', grid: { show: false }, values: function (u, vs) { return vs.map(fmtMs); } }
    ]
  };
  new uPlot(opts, [d.t, d.rate, d.p99_ms], el);
  document.documentElement.setAttribute('data-audit-chart-drawn', '1');
})();)JS";

constexpr std::string_view k_page_css = R"CSS(
pre.command { background: #18202f; color: #e8eefc; padding: 10px 12px; border-radius: 8px; overflow-x: auto; }
.chart { min-height: 340px; }
p.why { color: var(--muted); margin: 6px 0 0; }
)CSS";

// The chart's data, embedded as JSON: bin starts (s), sends per second, p99 (ms; null for an empty bin).
std::string data_script(const FeedbackFinding& f) {
  nlohmann::json t = nlohmann::json::array(), rate = nlohmann::json::array(), p99 = nlohmann::json::array();
  for (const FeedbackBin& b : f.bins) {
    t.push_back(to_seconds(b.offset));
    rate.push_back(b.sent_per_s);
    if (b.sent > 0) {
      p99.push_back(to_seconds(b.p99) * 1e3);
    } else {
      p99.push_back(nullptr);
    }
  }
  const std::string json = nlohmann::json{{"t", t}, {"rate", rate}, {"p99_ms", p99}}.dump(
      -1, ' ', false, nlohmann::json::error_handler_t::replace);
  // '<' only occurs inside JSON strings, where \u003c is the same character: no "</script>" ends the block.
  std::string safe;
  for (const char c : json) safe += c == '<' ? std::string("\\u003c") : std::string(1, c);
  return "<script type=\"application/json\" id=\"openloop-audit-data\">" + safe + "</script>\n";
}

std::string kv(std::string_view name, const std::string& value_html) {
  return fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", escape(name), value_html);
}

std::string percentile_row(std::string_view name, const PercentileSet& p) {
  return fmt::format(
      "<tr><th>{}</th><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
      "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>\n",
      escape(name), format_duration(p.p50), format_duration(p.p90), format_duration(p.p99),
      format_duration(p.p999), format_duration(p.max), p.count);
}

std::string model_section(const AuditResult& a) {
  const LittleFinding& l = a.little;
  std::string rows = kv("load model", fmt::format("<strong>{}</strong>", load_model_name(a.model.model)));
  rows += kv("evidence", escape(a.model.evidence));
  rows += kv("senders", fmt::format("{} ({} consecutive pairs)", a.model.senders, a.model.pairs));
  rows += kv("Little's law N = X·(R + Z)",
             escape(fmt::format("{} × ({} + {}) = {:.1f}", format_rate(l.x_per_s), format_duration(l.r_mean),
                                format_duration(l.z_mean), l.n)));
  rows += kv("think time Z", escape(l.z_source));
  rows += kv("requests in flight X·R", fmt::format("{:.1f}", l.in_flight));
  return "<section class=\"panel\"><h2>What the tool did</h2>\n<table class=\"kv\">\n" + rows +
         "</table></section>\n";
}

std::string feedback_section(const AuditResult& a) {
  std::string out = "<section class=\"panel\"><h2>Feedback: offered rate against latency</h2>\n";
  out += fmt::format("<p>{}</p>\n", escape(a.feedback.sentence));
  if (a.feedback.bins.size() >= 2) {
    out += "<div id=\"feedback-chart\" class=\"chart\"></div>\n";
    out += fmt::format(
        "<p class=\"why\">Each point is a bin of {} by send time: how many requests the tool sent per "
        "second, "
        "and the p99 of their response times. A closed loop sends less while its responses are slow: the "
        "rate "
        "falls exactly when the latency rises, which is the load a user population would not have "
        "reduced.</p>\n",
        escape(format_duration(a.feedback.bin_width)));
  } else {
    out += "<p class=\"why\">Too short a file for a chart (fewer than two time bins).</p>\n";
  }
  return out + "</section>\n";
}

std::string omission_section(const AuditResult& a) {
  const OmissionFinding& o = a.omission;
  std::string out = "<section class=\"panel\"><h2>Coordinated omission</h2>\n";
  out +=
      "<table class=\"latency\"><tr><th></th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>max</th>"
      "<th>samples</th></tr>\n";
  out += percentile_row("as recorded", o.uncorrected);
  if (o.applicable) out += percentile_row("corrected (estimate)", o.corrected);
  out += "</table>\n";
  if (o.applicable) {
    out += fmt::format(
        "<p class=\"why\">Expected interval {}: {}. {} requests held their sender for 2 or more expected "
        "intervals; {} sends they kept from happening were backfilled (HdrHistogram's "
        "recordValueWithExpectedInterval).</p>\n",
        escape(format_duration(o.expected_interval)), escape(o.why), o.blocked, o.missing);
  } else {
    out += fmt::format("<p class=\"why\">No correction: {}.</p>\n", escape(o.why));
  }
  return out + "</section>\n";
}

// An open-model tool's own lateness, where its file numbers its sends.
std::string lateness_section(const AuditResult& a) {
  const SendLatenessFinding& l = a.lateness;
  if (!l.applicable) return {};
  std::string out = fmt::format("<section class=\"panel\"><h2>{}'s own send lateness</h2>\n", escape(a.tool));
  out +=
      "<table class=\"latency\"><tr><th></th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>max</th>"
      "<th>samples</th></tr>\n";
  out += percentile_row("late by", l.lateness) + "</table>\n";
  out += fmt::format("<p>{}.</p>\n<p class=\"why\">{}.</p>\n", escape(l.sentence), escape(l.why));
  return out + "</section>\n";
}

std::string honest_section(const AuditResult& a) {
  std::string out = "<section class=\"panel\"><h2>The run that would answer honestly</h2>\n";
  out += fmt::format("<pre class=\"command\">{}</pre>\n<p class=\"why\">Rate: {}.</p>\n",
                     escape(a.honest.command), escape(a.honest.rate_source));
  if (!a.limits.empty() || a.bad.count > 0) {
    out += "<h2>What this file cannot show</h2>\n<ul>\n";
    for (const auto& l : a.limits) out += fmt::format("<li>{}</li>\n", escape(l));
    if (a.bad.count > 0) {
      out += fmt::format("<li>{} line(s) skipped; the first: {}</li>\n", a.bad.count, escape(a.bad.first));
    }
    out += "</ul>\n";
  }
  return out + "</section>\n";
}

}  // namespace

std::string render_html(const AuditResult& a) {
  std::string page = report::html::page_head("openloop audit: " + a.path, k_page_css) + "<body>\n";
  page += fmt::format(
      "<header><div class=\"brand\">openloop audit</div><h1>{}</h1><p class=\"facts\">{} · {} requests · {} "
      "failed · over {}</p></header>\n<main>\n",
      escape(a.path), escape(a.tool), a.records, a.failures, escape(format_duration(a.span)));
  page += fmt::format(
      "<section class=\"verdict unknown\"><div class=\"badge\">{}</div><div><p class=\"lead\">{}</p></div>"
      "</section>\n",
      escape(load_model_name(a.model.model)), escape(a.verdict));
  page +=
      model_section(a) + feedback_section(a) + omission_section(a) + lateness_section(a) + honest_section(a);
  page += "</main>\n" + data_script(a.feedback);
  page += fmt::format("<script>{}</script>\n<script>{}</script>\n</body>\n</html>\n",
                      report::assets::uplot_js(), k_chart_js);
  return page;
}

}  // namespace openloop::audit
