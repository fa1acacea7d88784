// The live state of a run in the Prometheus text exposition format (0.0.4) and OpenMetrics 1.0: what
// `--metrics-listen` serves.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "hdr/histogram.h"
#include "report/metrics/metric_families.h"
#include "results/recording/counters.h"
#include "results/run_results.h"

namespace openloop::report {

/// The plan's offered rate (requests/s) as a function of the measured period: its mean over [from_s, to_s)
/// seconds after the warm-up (negative: in the warm-up), or its rate at from_s when to_s ≤ from_s.
using OfferedRate = std::function<double(double from_s, double to_s)>;

/// Labels every series carries, and the plan's facts a scrape reports as gauges.
struct MetricsContext {
  std::string run_id;
  std::string scenario;                    ///< "" for a run from flags
  std::vector<std::string> request_names;  ///< the plan's requests, in index order
  double target_rps = 0;                   ///< the plan's peak offered rate (0: closed model)
  /// Labels after run_id and scenario on every series (a ramp's step, a probe's phase); empty for a run.
  MetricLabels extra_labels;
  /// The offered rate over time (a run's stages: ramps and steps); empty: target_rps throughout (a ramp's
  /// step, a probe's phase, a closed model).
  OfferedRate offered;
};

/// What a scrape shows: the results so far (finalized intervals, as the live view sees them), copied from the
/// coordinator's progress callback without its interval series.
struct MetricsState {
  results::Counters totals;
  hdr::Histogram response_time = results::make_latency_histogram();
  hdr::Histogram service_time = results::make_latency_histogram();
  hdr::Histogram send_lateness = results::make_latency_histogram();
  hdr::Histogram slot_wait = results::make_latency_histogram();  ///< queued arrivals' waits for a slot
  std::vector<results::RequestTotals> by_request;  ///< empty with one request
  std::uint64_t in_flight = 0;
  std::uint64_t connections_open = 0;  ///< sockets open (connecting or connected) at the last progress report
  /// The verdict so far: waiting (nothing measured yet), valid or invalid (the live view's bounds while the
  /// run goes: drops, sent fraction, send lateness; the run's own verdict once it has ended).
  enum class Verdict : unsigned char { waiting, valid, invalid };
  Verdict verdict = Verdict::waiting;
  std::uint64_t updates = 0;  ///< progress reports received (0: nothing final yet)
  /// The latest finalized interval, [from, to) seconds of the measured period; both 0 before the first.
  double latest_from_s = 0, latest_to_s = 0;
  /// Copies what a scrape shows from the results so far (the interval series is left out).
  static MetricsState of(const results::RunResults& so_far);
};

/// The rate the plan asks for now, requests/s: context.offered's mean over the state's latest finalized
/// interval (the "now" of every other series; before the first, its rate as measurement starts), or
/// context.target_rps when offered is empty.
double target_rate_now(const MetricsState& state, const MetricsContext& context);

/// Every family of a run's state: counters (requests intended, sent, ok, timeouts, dropped, unfinished, retries,
/// retry budget denials, resent, slot waits; responses by status class; errors by kind), gauges (in flight, the
/// verdict so far as openloop_verdict{state=...} 1, target rate now and at its peak, progress reports), and the
/// response time, service time, send lateness and slot wait as classic histograms in seconds (per request too
/// when the plan has several). Labels run_id, scenario, request ("" = every request), then extra_labels; the
/// histograms point into `state`: it must outlive the families.
std::vector<MetricFamily> run_metric_families(const MetricsState& state, const MetricsContext& context);

/// render_families_text() of run_metric_families().
std::string render_metrics(const MetricsState& state, const MetricsContext& context, bool openmetrics);

/// The Content-Type of each format.
inline constexpr const char* k_prometheus_text_type = "text/plain; version=0.0.4; charset=utf-8";
inline constexpr const char* k_openmetrics_type =
    "application/openmetrics-text; version=1.0.0; charset=utf-8";

}  // namespace openloop::report
