// A trace's rate profile as a constant rate or stages, its arrivals as constant or Poisson
// (workload/rate_fit.h).
#include "workload/rate_fit.h"

#include <algorithm>
#include <cmath>

namespace openloop::workload {
namespace {

constexpr double k_min_bin_s = 0.001;

// The variance of the whole seconds' counts (the ragged first and last left out) from their successive
// differences, d_t = x_{t+1} − x_t: Var(d) = 2 Var(x) for independent counts, and taking d's variance about
// its own mean removes a linear trend (a ramp's slope) as well as a constant level. Over the counts' mean;
// sets `known` when there are at least three whole seconds.
double dispersion_of(std::span<const std::uint64_t> per_second, bool& known) {
  known = false;
  if (per_second.size() < 5) return 0;
  const auto whole = per_second.subspan(1, per_second.size() - 2);
  double sum = 0;
  for (auto x : whole) sum += static_cast<double>(x);
  const double mean = sum / static_cast<double>(whole.size());
  if (mean <= 0) return 0;
  const std::size_t m = whole.size() - 1;  // differences
  double d_sum = 0, d_squares = 0;
  for (std::size_t i = 1; i < whole.size(); ++i) {
    const double d = static_cast<double>(whole[i]) - static_cast<double>(whole[i - 1]);
    d_sum += d;
    d_squares += d * d;
  }
  const double d_mean = d_sum / static_cast<double>(m);
  const double d_variance =
      m > 1 ? (d_squares - static_cast<double>(m) * d_mean * d_mean) / static_cast<double>(m - 1) : 0.0;
  known = true;
  return std::max(0.0, d_variance) / 2.0 / mean;
}

}  // namespace

RateFit fit_rate(std::span<const std::uint64_t> per_second, double first_bin_s, double last_bin_s,
                 double window_s) {
  RateFit fit;
  if (per_second.empty()) return fit;
  const std::size_t bins = per_second.size();
  const auto bin_length = [&](std::size_t i) {
    if (bins == 1) return std::max(first_bin_s, k_min_bin_s);
    if (i == 0) return std::clamp(first_bin_s, k_min_bin_s, 1.0);
    if (i + 1 == bins) return std::clamp(last_bin_s, k_min_bin_s, 1.0);
    return 1.0;
  };
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < bins; ++i) {
    total += per_second[i];
    fit.span_s += bin_length(i);
  }
  fit.mean_rate = static_cast<double>(total) / fit.span_s;
  if (window_s <= 0) {
    window_s = std::max({1.0, fit.span_s / 30.0, fit.mean_rate > 0 ? 200.0 / fit.mean_rate : 1.0});
  }
  const auto per_window = static_cast<std::size_t>(std::ceil(window_s - 1e-9));
  fit.window_s = static_cast<double>(per_window);
  double start = 0;
  for (std::size_t i = 0; i < bins; i += per_window) {
    RateWindow w{start, 0, 0};
    for (std::size_t k = i; k < std::min(bins, i + per_window); ++k) {
      w.length_s += bin_length(k);
      w.count += per_second[k];
    }
    start += w.length_s;
    fit.windows.push_back(w);
  }
  // The ragged ends: a window shorter than half its nominal length joins its neighbour.
  const auto merge = [](RateWindow& into, const RateWindow& from) {
    into.start_s = std::min(into.start_s, from.start_s);
    into.length_s += from.length_s;
    into.count += from.count;
  };
  if (fit.windows.size() > 1 && fit.windows.back().length_s < fit.window_s / 2) {
    merge(fit.windows[fit.windows.size() - 2], fit.windows.back());
    fit.windows.pop_back();
  }
  if (fit.windows.size() > 1 && fit.windows.front().length_s < fit.window_s / 2) {
    merge(fit.windows[1], fit.windows.front());
    fit.windows.erase(fit.windows.begin());
  }
  fit.dispersion = dispersion_of(per_second, fit.dispersion_known);
  fit.poisson = !fit.dispersion_known || fit.dispersion >= 0.5;
  const double variance_factor = std::max(fit.dispersion, 1.0);
  for (const RateWindow& w : fit.windows) {
    const double expected = fit.mean_rate * w.length_s;
    const double deviation = std::abs(static_cast<double>(w.count) - expected);
    const double allowed = std::max(0.1 * expected, 4.0 * std::sqrt(variance_factor * expected));
    if (deviation > allowed) fit.varies = true;
    if (fit.mean_rate > 0)
      fit.worst_deviation = std::max(fit.worst_deviation, std::abs(w.rate() - fit.mean_rate) / fit.mean_rate);
  }
  return fit;
}

}  // namespace openloop::workload
