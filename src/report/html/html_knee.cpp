// The knee chart: its embedded data, its panel and caption, and the uPlot script that draws it.
#include "report/html/html_knee.h"

#include <algorithm>

namespace openloop::report {
namespace {

using nlohmann::json;

json opt(const std::optional<double>& v) {
  return v ? json(*v) : json(nullptr);
}

// The JSON as a script element's text: '<' only occurs inside strings, where \u003c is the same character.
std::string script_safe(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    if (c == '<') {
      out += "\\u003c";
    } else {
      out += c;
    }
  }
  return out;
}

constexpr std::string_view k_caption =
    "Each point is one step of the ramp, held at a constant offered rate; its warm-up is left out. The "
    "dashed "
    "diagonal is the offered rate itself: <b>completed</b> (throughput, any status) and <b>goodput</b> "
    "(success "
    "within the deadline) follow it while the target keeps up. Where they leave it is the knee; past it, "
    "completed "
    "may stay high while goodput falls, because the target is finishing work whose clients already gave up. "
    "On the "
    "right axis (logarithmic), <b>p99</b> of response time with its 95% confidence interval from order "
    "statistics; "
    "a p99 at the timeout is censored (the truth is worse). Vertical lines mark the knee found by Kneedle on "
    "each "
    "curve, the capacity (the highest steady step meeting every SLO) and collapse.";

constexpr std::string_view k_script = R"JS((function () {
  'use strict';
  var holder = document.getElementById('knee-data');
  var el = document.getElementById('knee-chart');
  if (!holder || !el || typeof uPlot === 'undefined') return;
  var d = JSON.parse(holder.textContent);
  var root = document.documentElement;
  function fmtMs(v) {
    if (v == null) return '–';
    if (v < 1) return +(v * 1000).toPrecision(3) + ' µs';
    if (v < 1000) return +v.toPrecision(3) + ' ms';
    return +(v / 1000).toPrecision(3) + ' s';
  }
  function fmtRate(v) { return v == null ? '–' : +v.toPrecision(4) + '/s'; }
  function line(label, color, scale, fmt, extra) {
    var s = { label: label, stroke: color, width: 2, scale: scale, points: { show: true, size: 6 },
      value: function (u, v) { return fmt(v); } };
    for (var k in extra || {}) s[k] = extra[k];
    return s;
  }
  function markers(u) {
    var ctx = u.ctx, px = uPlot.pxRatio, rows = {};
    ctx.save();
    ctx.font = (11 * px) + 'px system-ui, sans-serif';
    d.markers.forEach(function (m) {
      var x = u.valToPos(m.offered, 'x', true);
      var row = rows[Math.round(x)] = (rows[Math.round(x)] || 0) + 1;
      ctx.strokeStyle = '#555';
      ctx.lineWidth = px;
      ctx.setLineDash([4 * px, 3 * px]);
      ctx.beginPath();
      ctx.moveTo(x, u.bbox.top);
      ctx.lineTo(x, u.bbox.top + u.bbox.height);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.fillStyle = '#333';
      ctx.textAlign = x > u.bbox.left + u.bbox.width * 0.8 ? 'right' : 'left';
      ctx.fillText(m.label, x + (ctx.textAlign === 'left' ? 4 : -4) * px, u.bbox.top + (12 + 13 * (row - 1)) * px);
    });
    ctx.restore();
  }
  function positive(a) { return a.map(function (v) { return v == null ? null : Math.max(v, 0.001); }); }
  var maxRate = Math.max.apply(null, d.offered.concat(d.completed, d.goodput, [1]));
  var opts = {
    width: Math.max(320, Math.floor(el.getBoundingClientRect().width)),
    height: 340,
    scales: { x: { time: false }, rate: { range: function () { return [0, maxRate * 1.1]; } }, ms: { distr: 3 } },
    series: [
      { label: 'offered', value: function (u, v) { return fmtRate(v); } },
      line('offered (diagonal)', '#7a7a7a', 'rate', fmtRate, { dash: [6, 4], width: 1.5, points: { show: false } }),
      line('completed (throughput)', '#2f7ed8', 'rate', fmtRate),
      line('goodput (ok within the deadline)', '#2a9d4b', 'rate', fmtRate, { fill: 'rgba(42, 157, 75, 0.10)' }),
      line('p99 response time', '#e8850c', 'ms', fmtMs, { value: function (u, v, si, i) {
        return i == null || v == null ? '–' : (d.censored[i] ? '≥ ' : '') + fmtMs(v); } }),
      line('p99 95% CI low', 'rgba(232, 133, 12, 0.5)', 'ms', fmtMs, { width: 1, dash: [2, 3], points: { show: false } }),
      line('p99 95% CI high', 'rgba(232, 133, 12, 0.5)', 'ms', fmtMs, { width: 1, dash: [2, 3], points: { show: false } })
    ],
    bands: [{ series: [6, 5], fill: 'rgba(232, 133, 12, 0.12)' }],
    axes: [
      { label: 'offered rate (requests per second)' },
      { scale: 'rate', label: 'requests per second', size: 70 },
      { scale: 'ms', side: 1, label: 'p99 response time', size: 70, grid: { show: false },
        values: function (u, v) { return v.map(fmtMs); } }
    ],
    hooks: { draw: [markers, function () { root.setAttribute('data-knee-drawn', '1'); }] },
    cursor: { sync: { key: 'knee' } }
  };
  var data = [d.offered, d.offered, d.completed, d.goodput, positive(d.p99), positive(d.p99_low), positive(d.p99_high)];
  var plot = new uPlot(opts, data, el);
  window.addEventListener('resize', function () {
    plot.setSize({ width: Math.max(320, Math.floor(el.getBoundingClientRect().width)), height: 340 });
  });
})();)JS";

}  // namespace

json knee_data(const KneeChart& c) {
  std::vector<KneePoint> points = c.points;
  std::stable_sort(points.begin(), points.end(),
                   [](const KneePoint& a, const KneePoint& b) { return a.offered < b.offered; });
  json j = {{"offered", json::array()},  {"completed", json::array()}, {"goodput", json::array()},
            {"p99", json::array()},      {"p99_low", json::array()},   {"p99_high", json::array()},
            {"censored", json::array()}, {"state", json::array()},     {"step", json::array()},
            {"markers", json::array()}};
  for (const auto& p : points) {
    j["offered"].push_back(p.offered);
    j["completed"].push_back(p.completed);
    j["goodput"].push_back(p.goodput);
    j["p99"].push_back(opt(p.p99_ms));
    j["p99_low"].push_back(opt(p.p99_low_ms));
    j["p99_high"].push_back(opt(p.p99_high_ms));
    j["censored"].push_back(p.censored);
    j["state"].push_back(p.state);
    j["step"].push_back(p.step);
  }
  for (const auto& m : c.markers) j["markers"].push_back({{"label", m.label}, {"offered", m.offered}});
  return j;
}

std::string knee_panel(const KneeChart& c) {
  return "<section class=\"panel chart\"><h2>The knee: offered vs completed vs goodput, and p99</h2>\n"
         "<div class=\"knee-plot\" id=\"knee-chart\" style=\"min-height:340px\"></div>\n<p "
         "class=\"caption\">" +
         std::string(k_caption) + "</p>\n<script type=\"application/json\" id=\"knee-data\">" +
         script_safe(knee_data(c).dump()) + "</script>\n</section>\n";
}

std::string_view knee_script() {
  return k_script;
}

}  // namespace openloop::report
