// The probe's HTML page: the standard run report of the last run, with the probe's verdict, phase tables and
// a phase-shaded chart per run placed first.
#include <fmt/format.h>

#include "core/units.h"
#include "procedures/probe/probe_format.h"
#include "procedures/probe/probe_report.h"
#include "report/html/html.h"
#include "report/text_format.h"
#include "results/judging/run_checks.h"

namespace openloop::procedures {
namespace {

using report::html::escape;

// Draws each run's chart from the embedded data; shades the phases behind the lines, marks the healthy
// window. Its plots carry class probe-plot (not plot), so the standard report's script neither counts nor
// draws them; once all are drawn the root element carries data-probe-charts-drawn="N".
constexpr std::string_view k_probe_js = R"JS((function () {
  'use strict';
  var data = JSON.parse(document.getElementById('openloop-probe-data').textContent);
  var root = document.documentElement, drawn = 0;
  var SHADE = { baseline: 'rgba(42,157,75,0.08)', trigger: 'rgba(214,45,32,0.13)', observe: 'rgba(47,126,216,0.07)',
    descend: 'rgba(142,90,214,0.09)' };
  function fmtMs(v) { return v == null ? '–' : v < 1 ? +(v * 1000).toPrecision(3) + ' µs' : v < 1000 ? +v.toPrecision(3) + ' ms' : +(v / 1000).toPrecision(3) + ' s'; }
  function fmtRate(v) { return v == null ? '–' : +v.toPrecision(4) + '/s'; }
  function shade(run) {
    return function (u) {
      var ctx = u.ctx, top = u.bbox.top, h = u.bbox.height, px = uPlot.pxRatio;
      ctx.save();
      run.phases.forEach(function (p) {
        var x0 = u.valToPos(p.start, 'x', true), x1 = u.valToPos(p.end, 'x', true);
        ctx.fillStyle = SHADE[p.kind] || 'rgba(0,0,0,0.04)';
        ctx.fillRect(x0, top, x1 - x0, h);
        ctx.fillStyle = '#5d6678';
        ctx.font = (11 * px) + 'px system-ui, sans-serif';
        ctx.fillText(p.name, x0 + 4 * px, top + 13 * px);
      });
      if (run.healthy) {
        var a = u.valToPos(run.healthy[0], 'x', true), b = u.valToPos(run.healthy[1], 'x', true);
        ctx.strokeStyle = '#1f8a4c'; ctx.lineWidth = 2 * px; ctx.setLineDash([5 * px, 3 * px]);
        ctx.strokeRect(a, top + 18 * px, b - a, h - 18 * px);
      }
      ctx.restore();
    };
  }
  data.runs.forEach(function (run, i) {
    var el = document.getElementById('probe-chart-' + i);
    if (!el) return;
    function line(label, color, scale, fmt, extra) {
      var s = { label: label, stroke: color, width: 2, scale: scale, points: { show: false }, value: function (u, v) { return fmt(v); } };
      for (var k in extra || {}) s[k] = extra[k];
      return s;
    }
    var opts = {
      width: Math.max(320, Math.floor(el.getBoundingClientRect().width)), height: 320,
      scales: { x: { time: false }, rate: { range: function (u, mn, mx) { return [0, Math.max(1, mx * 1.1)]; } }, ms: { distr: 3 } },
      series: [{ label: 'time', value: function (u, v) { return v == null ? 'hover the chart' : v.toFixed(1) + ' s'; } },
        line('offered', '#7a7a7a', 'rate', fmtRate, { dash: [6, 4], width: 1.5 }),
        line('throughput', '#2f7ed8', 'rate', fmtRate),
        line('goodput', '#2a9d4b', 'rate', fmtRate),
        line('attempts (retries included)', '#8e5ad6', 'rate', fmtRate, { dash: [4, 2], width: 1.5 }),
        line('p99', '#e8850c', 'ms', fmtMs, { dash: [2, 3] })],
      axes: [{ label: 'seconds since the start of measurement' }, { scale: 'rate', label: 'requests per second', size: 70 },
        { scale: 'ms', side: 1, label: 'p99 response time', size: 70, grid: { show: false }, values: function (u, v) { return v.map(fmtMs); } }],
      hooks: { drawClear: [shade(run)], draw: [function () { drawn++; root.setAttribute('data-probe-charts-drawn', String(drawn)); }] }
    };
    new uPlot(opts, [run.t, run.offered, run.throughput, run.goodput, run.attempts, run.p99.map(function (v) { return v == null ? null : Math.max(v, 0.001); })], el);
  });
})();)JS";

const char* verdict_class(ProbeVerdict v) {
  switch (v) {
    case ProbeVerdict::recovered:
      return "valid";
    case ProbeVerdict::inconclusive:
      return "unknown";
    default:
      return "invalid";
  }
}

// The phase's p99 with its 95 % interval from order statistics on the effective sample size ("1.2ms
// (1.1ms–1.4ms)"), as the terminal's interval lines give it; the bare p99 when the phase had no samples.
std::string p99_with_interval(const PhaseRow& row) {
  const stats::QuantileEstimate& q = row.latency[2];
  if (row.skipped || q.count == 0 || !q.low || !q.high) return format_duration(Nanos(row.stats.p99_ns));
  return fmt::format("{} <span class=\"ci\">({}–{})</span>", format_duration(Nanos(q.value)),
                     format_duration(Nanos(*q.low)), format_duration(Nanos(*q.high)));
}

std::string phase_table(const ProbeRun& run) {
  std::string rows, flags;
  for (const PhaseRow& row : run.outcome.phases) {
    if (const std::string flag = results::correlation_flag(row.independence); !row.skipped && !flag.empty())
      flags += fmt::format("<li>{}: {}</li>", escape(row.phase.name()), escape(flag));
    const Stats& s = row.stats;
    rows += fmt::format(
        "<tr><th>{}</th><td class=\"num\">{:.0f}–{:.0f}s</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{:.1f}</td><td class=\"num\">{:.1f}%</td><td class=\"num\">{:.2f}</td></tr>\n",
        escape(row.phase.name()), to_seconds(row.phase.start), to_seconds(row.phase.end()),
        rate_of(row.phase.rate), row.skipped ? "skipped" : rate_of(s.goodput), rate_of(s.throughput),
        p99_with_interval(row), s.in_flight, 100 * s.not_ok_fraction, s.amplification);
  }
  return "<table "
         "class=\"latency\"><tr><th>phase</th><th>time</th><th>planned</th><th>goodput</th><th>throughput</"
         "th>"
         "<th>p99 (95 % interval)</th><th>in flight</th><th>not ok</th><th>ampl.</th></tr>\n" +
         rows + "</table>\n" + (flags.empty() ? "" : "<ul class=\"caption\">" + flags + "</ul>\n");
}

std::string run_panel(const ProbeRun& run, std::size_t i, std::size_t n) {
  std::string signals;
  for (const Signal& s : run.outcome.signals)
    signals += fmt::format("<li><b>{}</b>: {}</li>", escape(s.name), escape(s.text));
  for (const auto& note : run.outcome.notes) signals += fmt::format("<li>{}</li>", escape(note));
  // One run: the banner above already holds its sentence.
  const std::string heading =
      n > 1 ? fmt::format("Run {} of {}: {}", i + 1, n, to_string(run.outcome.verdict)) : "Phases";
  const std::string sentence = n > 1 ? "<p>" + escape(run.outcome.sentence) + "</p>" : "";
  return fmt::format(
      "<section class=\"panel chart\"><h2>{}</h2>\n{}{}\n{}"
      "<div class=\"probe-plot\" style=\"width:100%;min-height:320px\" id=\"probe-chart-{}\"></div>\n<p "
      "class=\"caption\">Offered (dashed), "
      "throughput, goodput and attempts (retries included) per second of intended time, p99 on the right "
      "axis. Shaded: the phases "
      "(green baseline, red trigger, blue observe, purple descending steps); the dashed green box is the "
      "first window that met every recovery criterion.</p></section>\n",
      heading, sentence, signals.empty() ? "" : "<ul>" + signals + "</ul>", phase_table(run), i);
}

nlohmann::json chart_json(const ProbeRun& run) {
  nlohmann::json t = nlohmann::json::array(), offered = t, throughput = t, goodput = t, attempts = t, p99 = t,
                 phases = t;
  for (const auto& in : run.results.intervals) {
    const double len = in.length_s > 0 ? in.length_s : 1;
    t.push_back(in.start_s + len / 2);
    offered.push_back(static_cast<double>(in.counters.intended) / len);
    throughput.push_back(static_cast<double>(in.counters.completed) / len);
    goodput.push_back(static_cast<double>(in.counters.ok) / len);
    // Files written before attempts were counted hold 0: one attempt per request sent.
    const auto tries = in.counters.attempts > 0 ? in.counters.attempts : in.counters.sent;
    attempts.push_back(static_cast<double>(tries) / len);
    p99.push_back(in.response_time.count > 0 ? nlohmann::json(static_cast<double>(in.response_time.p99) / 1e6)
                                             : nlohmann::json());
  }
  for (const PhaseRow& row : run.outcome.phases) {
    const std::string name = row.phase.name();
    phases.push_back({{"name", name},
                      {"kind", name.substr(0, name.find(' '))},
                      {"start", to_seconds(row.phase.start)},
                      {"end", to_seconds(row.phase.end())}});
  }
  nlohmann::json out = {{"t", t},
                        {"offered", offered},
                        {"throughput", throughput},
                        {"goodput", goodput},
                        {"attempts", attempts},
                        {"p99", p99},
                        {"phases", phases}};
  const auto& w = run.outcome.healthy_window;
  out["healthy"] = w ? nlohmann::json::array({w->start_s, w->end_s}) : nlohmann::json();
  return out;
}

std::string probe_section(const ProbeReport& r) {
  const ProbeVerdict v = overall_verdict(r);
  const ProbeSettings& s = r.plan.settings;
  std::string out = fmt::format(
      "<section class=\"verdict {}\"><div class=\"badge\">{}</div><div><p class=\"lead\">{}</p>"
      "<p class=\"note\">Metastable probe of {}: base load {}, trigger {}, recovery window {}. Recovered "
      "means a "
      "window after the trigger with goodput ≥ {:.0f}% of the baseline's, p99 ≤ {:.2f}× the baseline's, in "
      "flight ≤ "
      "{:.1f}× and amplification ≤ {:.2f}×. The run report below describes the last "
      "run.</p></div></section>\n",
      verdict_class(v), to_string(v), escape(overall_sentence(r)), escape(r.target), rate_of(s.base_rate),
      escape(describe(s.trigger, s.trigger_for)), format_duration(s.window),
      100 * s.criteria.min_goodput_fraction, s.criteria.max_p99_ratio, s.criteria.max_in_flight_ratio,
      s.criteria.max_amplification_ratio);
  for (std::size_t i = 0; i < r.runs.size(); ++i) out += run_panel(r.runs[i], i, r.runs.size());
  return out;
}

std::string data_script(const ProbeReport& r) {
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& run : r.runs) runs.push_back(chart_json(run));
  std::string json = nlohmann::json{{"runs", runs}}.dump(), safe;
  for (const char c : json) safe += c == '<' ? std::string("\\u003c") : std::string(1, c);
  return "<script type=\"application/json\" id=\"openloop-probe-data\">" + safe + "</script>\n";
}

}  // namespace

std::string render_probe_html(const ProbeReport& r) {
  report::ReportInput in;
  in.source = "openloop probe metastable";
  if (!r.runs.empty()) in.results = r.runs.back().results;
  std::string page = report::render_html(in);
  // The standard page is reused whole: the probe's section goes first inside <main>, its data and script last
  // (after uPlot, which the standard page loads).
  const std::string main_tag = "<main>\n";
  if (const std::size_t at = page.find(main_tag); at != std::string::npos) {
    page.insert(at + main_tag.size(), probe_section(r));
  }
  if (const std::size_t at = page.rfind("</body>"); at != std::string::npos) {
    page.insert(at, data_script(r) + "<script>" + std::string(k_probe_js) + "</script>\n");
  }
  return page;
}

}  // namespace openloop::procedures
