// One interval's measurements: the three latency histograms (nanoseconds) and the outcome counters.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "hdr/histogram.h"
#include "results/recording/counters.h"
#include "results/recording/phase_stats.h"
#include "results/recording/server_timing_stats.h"

namespace openloop::results {

/// Highest latency the histograms track: one hour in nanoseconds. Longer values are clamped to it.
inline constexpr std::int64_t k_max_trackable_ns = 3'600'000'000'000;
/// Significant digits of every latency histogram.
inline constexpr int k_significant_digits = 3;

/// A latency histogram with openloop's standard layout (1 ns .. 1 h, 3 digits).
hdr::Histogram make_latency_histogram();

/// Most flow steps counted one by one; later steps are counted with the last (FlowCounters::steps).
inline constexpr std::size_t k_flow_steps_counted = 16;

/// One flow step's failures (docs/flows.md): captures that found nothing (and had no default), checks the
/// response failed, and sessions (or closed users' iterations) the step stopped by its on_fail: stop.
struct StepFlowCounts {
  std::uint64_t captures_failed = 0;
  std::uint64_t checks_failed = 0;
  std::uint64_t stopped = 0;
  bool empty() const { return captures_failed == 0 && checks_failed == 0 && stopped == 0; }
};

/// What happened to users and sessions (closed, pacing and partly-open models), by the interval of their
/// start. Sessions obey their own conservation: intended = completed + failed + dropped + unfinished.
struct FlowCounters {
  std::uint64_t iterations = 0;          ///< closed/pacing: iterations started
  std::uint64_t sessions_intended = 0;   ///< sessions that arrived (partly-open model)
  std::uint64_t sessions_completed = 0;  ///< ran every step with a success status
  std::uint64_t sessions_failed = 0;  ///< a step failed (error, timeout or non-success status); the user left
  std::uint64_t sessions_dropped = 0;     ///< could not start: the concurrent-sessions cap was reached
  std::uint64_t sessions_unfinished = 0;  ///< still running when the run ended
  // Flow steps' captures and checks (by the interval of the step's intended time).
  std::uint64_t captures_failed = 0;  ///< every step's failed captures
  std::uint64_t checks_failed = 0;    ///< every step's failed checks
  /// Sessions a failed capture or check stopped (part of sessions_failed), or, closed and pacing, iterations
  /// it cut short (the user starts the next one).
  std::uint64_t stopped = 0;
  /// The same by step (index in the scenario's steps); steps past k_flow_steps_counted add to the last.
  std::array<StepFlowCounts, k_flow_steps_counted> steps{};
  void add(const FlowCounters& o);
};

/// One named request's share of an interval (only kept when the plan has several requests).
struct RequestStats {
  Counters counters;
  hdr::Histogram response_time = make_latency_histogram();
  hdr::Histogram service_time = make_latency_histogram();
  void add(const RequestStats& o);
};

/// Measurements of the requests whose intended time falls in one interval. `index` is the interval number
/// since the start of measurement (−1 holds the warm-up).
struct IntervalStats {
  std::int64_t index = 0;
  Counters counters;
  hdr::Histogram response_time = make_latency_histogram();  ///< completion (or censoring) − intended time
  hdr::Histogram service_time = make_latency_histogram();   ///< completion − actual send
  hdr::Histogram send_lateness = make_latency_histogram();  ///< actual send − intended time
  hdr::Histogram attempt_time =
      make_latency_histogram();  ///< each attempt: its start → its outcome (retries)
  FlowCounters flows;
  hdr::Histogram session_time = make_latency_histogram();  ///< session end − session intended start
  /// Queued arrivals (Counters::slot_waits): from when each was queued to when it left the queue (dispatched,
  /// expired at its deadline, or the run's end), one value each.
  hdr::Histogram slot_wait = make_latency_histogram();
  std::vector<RequestStats> by_request;  ///< per request index; empty when the plan has a single request
  PhaseStats phases;  ///< connect, TLS, first byte and body of the attempts that received a response
  ServerTimingStats server_timing;  ///< responses with a Server-Timing header: server time, time outside it
  /// --coalesce auto: the widest wake-up window any worker used for this interval's sends (−1: not auto).
  std::int64_t coalesce_ns = -1;

  /// Exact merge of another interval's data (same or different index).
  void add(const IntervalStats& other);
  /// Empties every count and histogram, keeping their memory (and the per-request breakdown's size), so a
  /// spent interval can serve again without allocating.
  void clear();
  /// Whether every histogram has `counts_length` counts and the breakdown `requests` entries: what a spare
  /// must have to replace a freshly made interval.
  bool has_layout(std::int32_t counts_length, std::size_t requests) const;
};

/// Records value in nanoseconds, clamping to [0, k_max_trackable_ns] so nothing is ever lost.
inline void record_ns(hdr::Histogram& h, std::int64_t ns) {
  h.record(ns < 0 ? 0 : (ns > k_max_trackable_ns ? k_max_trackable_ns : ns));
}

}  // namespace openloop::results
