// Counters to rates, gauges to means, buckets to quantiles: per window, from timed readings.
#include "observe/series.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace openloop::observe {
namespace {

constexpr double k_nan = std::numeric_limits<double>::quiet_NaN();

}  // namespace

namespace {

// Cumulative increases up to each reading; a decrease adds nothing.
std::vector<double> increases(const Series& s) {
  std::vector<double> sum(s.points.size(), 0.0);
  for (std::size_t i = 1; i < s.points.size(); ++i)
    sum[i] = sum[i - 1] + std::max(0.0, s.points[i].second - s.points[i - 1].second);
  return sum;
}

double at(const Series& s, const std::vector<double>& sum, double t) {
  const auto& p = s.points;
  if (p.empty()) return k_nan;
  const double slack = 1.5 * s.period_s;
  if (t < p.front().first - slack || t > p.back().first + slack) return k_nan;
  const auto it = std::lower_bound(p.begin(), p.end(), t,
                                   [](const std::pair<double, double>& x, double v) { return x.first < v; });
  if (it == p.end()) return sum.back();
  const auto i = static_cast<std::size_t>(it - p.begin());
  if (i == 0) return sum.front();
  const double span = p[i].first - p[i - 1].first;
  if (span <= 0) return sum[i];
  return sum[i - 1] + (sum[i] - sum[i - 1]) * (t - p[i - 1].first) / span;
}

double rate(const Series& s, const std::vector<double>& sum, double from, double to) {
  if (!(to > from)) return k_nan;
  const double a = at(s, sum, from);
  const double b = at(s, sum, to);
  if (std::isnan(a) || std::isnan(b)) return k_nan;
  return (b - a) / (to - from);
}

}  // namespace

double counter_at(const Series& s, double t) {
  return at(s, increases(s), t);
}

double counter_rate(const Series& s, double from, double to) {
  return rate(s, increases(s), from, to);
}

double gauge_mean(const Series& s, double from, double to) {
  const auto& p = s.points;
  const auto by_time = [](const std::pair<double, double>& x, double v) { return x.first < v; };
  auto it = std::lower_bound(p.begin(), p.end(), from, by_time);
  double sum = 0;
  std::size_t n = 0;
  for (; it != p.end() && it->first < to; ++it) {
    sum += it->second;
    ++n;
  }
  if (n > 0) return sum / static_cast<double>(n);
  const double mid = (from + to) / 2;
  const auto near = std::lower_bound(p.begin(), p.end(), mid, by_time);
  double best = k_nan, distance = std::numeric_limits<double>::infinity();
  for (auto c : {near, near == p.begin() ? near : near - 1}) {
    if (c == p.end()) continue;
    if (std::abs(c->first - mid) < distance) {
      distance = std::abs(c->first - mid);
      best = c->second;
    }
  }
  return distance <= 1.5 * s.period_s ? best : k_nan;
}

double bucket_quantile(const std::vector<std::pair<double, double>>& buckets, double q) {
  if (buckets.empty()) return k_nan;
  const double total = buckets.back().second;
  if (!(total > 0)) return k_nan;
  const double rank = q * total;
  double below = 0, lower = 0;
  for (std::size_t k = 0; k < buckets.size(); ++k) {
    const auto [le, count] = buckets[k];
    if (count >= rank) {
      if (std::isinf(le)) return k > 0 ? buckets[k - 1].first : k_nan;
      if (count <= below) return le;
      return lower + (le - lower) * (rank - below) / (count - below);
    }
    below = std::max(below, count);
    lower = le;
  }
  return buckets.back().first;
}

Aligned align(const std::vector<Series>& series, const std::vector<Window>& windows) {
  Aligned out;
  // One entry per output signal: the series it is made of.
  struct Out {
    Kind kind;
    std::vector<std::size_t> parts;  // indices into `series`
    double q = 0.5;                  // bucket: the quantile
  };
  std::vector<Out> outs;
  std::map<std::string, std::size_t> groups;  // source + group → index in outs
  for (std::size_t k = 0; k < series.size(); ++k) {
    const Series& s = series[k];
    if (s.meta.kind == Kind::bucket || s.meta.kind == Kind::per_thread) {
      const std::string key = s.source + '\x1f' + s.meta.group;
      auto [it, fresh] = groups.emplace(key, outs.size());
      if (fresh) {
        outs.push_back({s.meta.kind, {}, 0.5});
        if (s.meta.kind == Kind::bucket) {
          out.signals.push_back({s.source, s.meta.group + " p50", s.meta.unit, results::SignalRole::other,
                                 s.meta.group + " p50"});
          outs.push_back({Kind::bucket, {}, 0.99});  // p99: filled from the same parts below
          out.signals.push_back({s.source, s.meta.group + " p99", s.meta.unit, results::SignalRole::other,
                                 s.meta.group + " p99"});
        } else {
          out.signals.push_back({s.source, s.meta.group, s.meta.unit, s.meta.role, s.meta.label});
        }
      }
      outs[it->second].parts.push_back(k);
      if (s.meta.kind == Kind::bucket) outs[it->second + 1].parts.push_back(k);
      continue;
    }
    outs.push_back({s.meta.kind, {k}, 0.5});
    out.signals.push_back({s.source, s.name, s.meta.unit, s.meta.role, s.meta.label});
  }
  out.values.assign(windows.size(), std::vector<double>(outs.size(), k_nan));
  std::vector<std::vector<double>> sums;
  sums.reserve(series.size());
  for (const auto& s : series)
    sums.push_back(s.meta.kind == Kind::gauge ? std::vector<double>() : increases(s));
  for (std::size_t w = 0; w < windows.size(); ++w) {
    const Window win = windows[w];
    for (std::size_t o = 0; o < outs.size(); ++o) {
      const Out& x = outs[o];
      double v = k_nan;
      switch (x.kind) {
        case Kind::counter: {
          const std::size_t k = x.parts.front();
          v = rate(series[k], sums[k], win.from, win.to);
          break;
        }
        case Kind::gauge:
          v = gauge_mean(series[x.parts.front()], win.from, win.to);
          break;
        case Kind::per_thread:
          for (const std::size_t k : x.parts) {
            const double r = rate(series[k], sums[k], win.from, win.to);
            if (!std::isnan(r)) v = std::isnan(v) ? r : std::max(v, r);
          }
          break;
        case Kind::bucket: {
          std::vector<std::pair<double, double>> buckets;
          for (const std::size_t k : x.parts) {
            const double r = rate(series[k], sums[k], win.from, win.to);
            if (!std::isnan(r)) buckets.emplace_back(series[k].meta.le, r * (win.to - win.from));
          }
          std::sort(buckets.begin(), buckets.end());
          v = bucket_quantile(buckets, x.q);
          break;
        }
      }
      out.values[w][o] = v;
    }
  }
  return out;
}

}  // namespace openloop::observe
