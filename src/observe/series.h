// The sampler's record (each signal's timed readings) and how it becomes one value per interval, aligned
// exactly with the latency intervals.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "observe/source.h"
#include "results/recording/observed.h"

namespace openloop::observe {

/// Every reading of one signal: (time, value) in the order taken; time in seconds since the Unix epoch (the
/// sampler's steady clock carried onto the wall clock once, as the engine stamps a run's start).
struct Series {
  std::string source, name;
  SignalMeta meta;
  double period_s = 0.1;  ///< the source's sampling period: values are not extrapolated beyond 1.5 of it
  std::vector<std::pair<double, double>> points;
};

/// A time window in seconds since the Unix epoch: [from, to).
struct Window {
  double from = 0, to = 0;
};

/// One value per signal per window, with the signals they belong to.
struct Aligned {
  std::vector<results::ObservedSignal> signals;
  std::vector<std::vector<double>> values;  ///< [window][signal]; NaN where nothing was sampled
};

/// The value of a counter at time `t`: linear between the readings around it, after turning decreases
/// (a restarted counter, an exited thread) into no increase; NaN beyond the readings by more than 1.5
/// periods.
double counter_at(const Series& s, double t);
/// A counter's rate over [from, to): (counter_at(to) − counter_at(from)) / (to − from).
double counter_rate(const Series& s, double from, double to);
/// A gauge over [from, to): the mean of its readings inside, else the reading nearest the middle if within
/// 1.5 periods of it, else NaN.
double gauge_mean(const Series& s, double from, double to);
/// The quantile `q` of histogram buckets' increases in one window (`le` ascending, counts cumulative as
/// Prometheus writes them), interpolated linearly within the bucket as histogram_quantile() does; NaN when
/// nothing was counted.
double bucket_quantile(const std::vector<std::pair<double, double>>& le_and_increase, double q);

/// Each series as one value per window: counters as rates, gauges as means, histogram families as " p50"
/// and " p99" (unit of the family), per-thread counters as the largest rate (the group's name). Signals are
/// in order of first appearance; buckets and per-thread series are not listed themselves.
Aligned align(const std::vector<Series>& series, const std::vector<Window>& windows);

}  // namespace openloop::observe
