// openloop HTML report: draws the four charts from the embedded JSON with uPlot. No network access, no console output.
(function () {
  'use strict';

  var data = JSON.parse(document.getElementById('openloop-data').textContent);
  var root = document.documentElement;
  var plots = document.querySelectorAll('.plot');
  var charts = [];
  var drawn = {};
  var HEIGHT = 300;

  var COLORS = {
    p50: '#2f7ed8', p90: '#8e5ad6', p99: '#e8850c', max: '#d62d20',
    offered: '#7a7a7a', sent: '#0a9396',
    throughput: '#2f7ed8', goodput: '#2a9d4b',
    ok: '#2a9d4b', bad_status: '#f2a93b', errors: '#d62d20', timeouts: '#8e5ad6', dropped: '#3d3d3d',
    unfinished: '#b8b8b8',
    response: '#d62d20', service: '#2f7ed8', gap: 'rgba(214, 45, 32, 0.12)'
  };

  root.setAttribute('data-charts-expected', String(plots.length));

  function fmtMs(v) {
    if (v == null) return '–';
    if (v === 0) return '0';
    if (v < 1) return +(v * 1000).toPrecision(3) + ' µs';
    if (v < 1000) return +v.toPrecision(3) + ' ms';
    return +(v / 1000).toPrecision(3) + ' s';
  }
  function fmtRate(v) { return v == null ? '–' : +v.toPrecision(4) + '/s'; }
  function fmtPercentile(x) {
    var p = 100 * (1 - 1 / x);
    if (p <= 0) return '0%';
    var digits = Math.max(0, Math.ceil(-Math.log10(100 - p)) + 1);
    var text = p.toFixed(Math.min(digits, 6));
    if (text.indexOf('.') >= 0) text = text.replace(/0+$/, '').replace(/\.$/, '');
    return text + '%';
  }
  function isPowerOf10(x) { var l = Math.log10(x); return Math.abs(l - Math.round(l)) < 1e-9; }
  function positive(arr) { return arr.map(function (v) { return v == null ? null : Math.max(v, 0.001); }); }
  function widthOf(el) { return Math.max(320, Math.floor(el.getBoundingClientRect().width)); }

  function markDrawn(id) {
    return function () {
      if (drawn[id]) return;
      drawn[id] = true;
      var n = Object.keys(drawn).length;
      if (n === plots.length) root.setAttribute('data-charts-drawn', String(n));
    };
  }

  function mount(id, opts, series) {
    var el = document.getElementById(id);
    if (!el) return;
    opts.width = widthOf(el);
    opts.height = HEIGHT;
    opts.hooks = opts.hooks || {};
    opts.hooks.draw = (opts.hooks.draw || []).concat([markDrawn(id)]);
    opts.cursor = opts.cursor || { sync: { key: 'openloop' } };
    charts.push({ el: el, plot: new uPlot(opts, series, el) });
  }

  function timeAxis() {
    return { label: 'seconds since the start of measurement', values: function (u, v) { return v.map(function (s) { return s + 's'; }); } };
  }
  // Each interval is drawn at its middle, so a line point or a bar sits over the second it describes.
  var mid = data.t.map(function (t, i) { return t + data.len[i] / 2; });
  function xRange() {
    var t = data.t, len = data.len;
    return function () { return t.length ? [t[0], t[t.length - 1] + len[len.length - 1]] : [0, 1]; };
  }
  function xSeries() {
    return { label: 'interval', value: function (u, v, si, idx) {
      return idx == null ? '–' : +data.t[idx].toFixed(3) + '–' + +(data.t[idx] + data.len[idx]).toFixed(3) + 's';
    } };
  }
  function line(label, color, scale, fmt, extra) {
    var s = { label: label, stroke: color, width: 2, scale: scale, value: function (u, v) { return fmt(v); },
      points: { show: false }, spanGaps: false };
    for (var k in extra || {}) s[k] = extra[k];
    return s;
  }

  function latencyChart() {
    var rt = data.rt, series = [xSeries()], columns = [mid];
    [['p50', 'p50'], ['p90', 'p90'], ['p99', 'p99'], ['max', 'max']].forEach(function (p) {
      series.push(line(p[1], COLORS[p[0]], 'ms', fmtMs));
      columns.push(positive(rt[p[0]]));
    });
    var rateNames = data.has_counts ? [['offered', 'offered rate'], ['sent', 'sent rate']] : [['recorded', 'recorded per second']];
    rateNames.forEach(function (r) {
      series.push(line(r[1], COLORS[r[0]] || COLORS.sent, 'rate', fmtRate, { dash: r[0] === 'offered' ? [6, 4] : [2, 3], width: 1.5 }));
      columns.push(data.rate[r[0]]);
    });
    mount('chart-latency', {
      scales: { x: { time: false, range: xRange() }, ms: { distr: 3 }, rate: { range: function (u, min, max) { return [0, Math.max(1, max * 1.1)]; } } },
      series: series,
      axes: [timeAxis(), { scale: 'ms', label: 'response time', size: 70, values: function (u, v) { return v.map(fmtMs); } },
        { scale: 'rate', side: 1, label: 'requests per second', size: 70, grid: { show: false }, values: function (u, v) { return v.map(function (x) { return +x.toPrecision(3); }); } }]
    }, columns);
  }

  function throughputChart() {
    mount('chart-throughput', {
      scales: { x: { time: false, range: xRange() }, rate: { range: function (u, min, max) { return [0, Math.max(1, max * 1.1)]; } } },
      series: [xSeries(),
        line('offered', COLORS.offered, 'rate', fmtRate, { dash: [6, 4], width: 1.5 }),
        line('throughput (completed)', COLORS.throughput, 'rate', fmtRate),
        line('goodput (ok in time)', COLORS.goodput, 'rate', fmtRate, { fill: 'rgba(42, 157, 75, 0.10)' })],
      axes: [timeAxis(), { scale: 'rate', label: 'requests per second', size: 70 }]
    }, [mid, data.rate.offered, data.throughput, data.goodput]);
  }

  function outcomesChart() {
    var names = [['ok', 'ok'], ['bad_status', 'error status'], ['errors', 'errors'], ['timeouts', 'timeouts'],
      ['dropped', 'dropped'], ['unfinished', 'unfinished']];
    var always = { ok: 1, errors: 1, timeouts: 1, dropped: 1 };
    var shown = names.filter(function (n) { return always[n[0]] || data.outcomes[n[0]].some(function (v) { return v > 0; }); });
    var sum = data.t.map(function () { return 0; });
    var stacked = shown.map(function (n) {
      sum = sum.map(function (s, i) { return s + data.outcomes[n[0]][i]; });
      return sum.slice();
    });
    // The top of the stack is drawn first so each lower category paints over it: stacked bars.
    var order = shown.map(function (n, i) { return i; }).reverse();
    var bars = uPlot.paths.bars({ size: [0.8, 120], align: 0 });
    var series = [xSeries()].concat(order.map(function (i) {
      var key = shown[i][0];
      return { label: shown[i][1], stroke: COLORS[key], fill: COLORS[key], width: 0, paths: bars, points: { show: false },
        value: function (u, v, si, idx) { return idx == null ? '–' : String(data.outcomes[key][idx]); } };
    }));
    mount('chart-outcomes', {
      scales: { x: { time: false, range: xRange() }, y: { range: function (u, min, max) { return [0, Math.max(1, max * 1.05)]; } } },
      series: series,
      axes: [timeAxis(), { label: 'requests', size: 70 }]
    }, [mid].concat(order.map(function (i) { return stacked[i]; })));
  }

  // Labels the gap between response and service time at p99 or p99.9, where the story is; the report computes
  // it (co_gap) and leaves it out where it is within the generator's own send lateness.
  function gapLabel(u) {
    var g = data.spectrum.gap;
    if (!g) return;
    var ratio = g.ratio;
    var ctx = u.ctx, px = uPlot.pxRatio;
    var cx = u.valToPos(g.x, 'x', true);
    var top = u.valToPos(Math.max(g.response_ms, 0.001), 'ms', true), bottom = u.valToPos(Math.max(g.service_ms, 0.001), 'ms', true);
    ctx.save();
    ctx.strokeStyle = '#333';
    ctx.fillStyle = '#333';
    ctx.lineWidth = px;
    ctx.setLineDash([3 * px, 3 * px]);
    ctx.beginPath();
    ctx.moveTo(cx, top);
    ctx.lineTo(cx, bottom);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.font = (11.5 * px) + 'px system-ui, sans-serif';
    var text = ['gap before sending: ×' + ratio.toPrecision(2) + ' at p' + g.percentile,
      'time in openloop before the send (lateness or a client-side queue)'];
    // The box sits in the top-left corner, where latencies are lowest, with a leader line to the gap.
    var w = Math.max(ctx.measureText(text[0]).width, ctx.measureText(text[1]).width) + 12 * px;
    var bx = u.bbox.left + 12 * px, by = u.bbox.top + 8 * px;
    ctx.setLineDash([2 * px, 2 * px]);
    ctx.strokeStyle = '#b5534b';
    ctx.beginPath();
    ctx.moveTo(bx + w / 2, by + 36 * px);
    ctx.lineTo(cx, (top + bottom) / 2);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = 'rgba(255, 255, 255, 0.9)';
    ctx.strokeStyle = '#d9a19c';
    ctx.beginPath();
    ctx.rect(bx, by, w, 36 * px);
    ctx.fill();
    ctx.stroke();
    ctx.textAlign = 'left';
    ctx.fillStyle = '#8a1c14';
    ctx.fillText(text[0], bx + 6 * px, by + 15 * px);
    ctx.fillStyle = '#5d6678';
    ctx.fillText(text[1], bx + 6 * px, by + 30 * px);
    ctx.restore();
  }

  function spectrumChart() {
    var s = data.spectrum;
    mount('chart-spectrum', {
      scales: { x: { time: false, distr: 3 }, ms: { distr: 3 } },
      series: [{ label: 'percentile', value: function (u, v) { return v == null ? '–' : fmtPercentile(v); } },
        line('response time (from intended time)', COLORS.response, 'ms', fmtMs),
        line('service time (from actual send)', COLORS.service, 'ms', fmtMs)],
      bands: [{ series: [1, 2], fill: COLORS.gap }],
      axes: [{ label: 'percentile (1 in N requests was slower)', values: function (u, v) { return v.map(function (x) { return isPowerOf10(x) ? fmtPercentile(x) : ''; }); } },
        { scale: 'ms', label: 'latency', size: 70, values: function (u, v) { return v.map(fmtMs); } }],
      hooks: { draw: [gapLabel] },
      cursor: { sync: { key: 'spectrum' } }
    }, [s.x, positive(s.response), positive(s.service)]);
  }

  function empty(id, text) {
    var el = document.getElementById(id);
    if (!el) return;
    el.className += ' empty';
    el.textContent = text;
    markDrawn(id)();
  }

  function draw(id, fn, hasData) {
    if (!document.getElementById(id)) return;
    if (!hasData) { empty(id, 'No data: the run has no measured interval with samples.'); return; }
    fn();
  }

  var hasIntervals = data.t.length > 0;
  draw('chart-latency', latencyChart, hasIntervals);
  draw('chart-throughput', throughputChart, hasIntervals && data.has_counts);
  draw('chart-outcomes', outcomesChart, hasIntervals && data.has_counts);
  draw('chart-spectrum', spectrumChart, data.spectrum.x.length > 0);

  // --observe: one chart per source, its signals on one axis per unit (the first two units get an axis).
  function observedCharts() {
    (data.observed || []).forEach(function (g, k) {
      var id = 'chart-observed-' + k;
      if (!g.signals.length) { empty(id, 'No values: ' + g.source + ' was not sampled (see the warnings).'); return; }
      var palette = ['#d1495b', '#00798c', '#edae49', '#30638e', '#6a4c93', '#2a9d4b', '#8d6a9f', '#b5651d'];
      var units = [];
      g.signals.forEach(function (s) { if (units.indexOf(s.unit) < 0) units.push(s.unit); });
      var scales = { x: { time: false, range: xRange() } };
      units.forEach(function (u) { scales[u || 'value'] = { range: function (pl, min, max) { return [0, Math.max(u === 'share' ? 1 : 0.001, max * 1.1)]; } }; });
      var axes = [timeAxis()];
      units.slice(0, 2).forEach(function (u, i) {
        axes.push({ scale: u || 'value', label: u || 'value', side: i === 0 ? 3 : 1, size: 70, grid: { show: i === 0 } });
      });
      var series = [xSeries()].concat(g.signals.map(function (s, i) {
        return line(s.label, palette[i % palette.length], s.unit || 'value', function (v) { return v == null ? '–' : +v.toPrecision(3) + (s.unit ? ' ' + s.unit : ''); });
      }));
      mount(id, { scales: scales, series: series, axes: axes }, [mid].concat(g.signals.map(function (s) { return s.values; })));
    });
  }
  if (hasIntervals) observedCharts();
  else (data.observed || []).forEach(function (g, k) { empty('chart-observed-' + k, 'No data: the run has no measured interval.'); });

  window.addEventListener('resize', function () {
    charts.forEach(function (c) { c.plot.setSize({ width: widthOf(c.el), height: HEIGHT }); });
  });
})();
