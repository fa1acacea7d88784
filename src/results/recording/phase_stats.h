// Per-phase timings of requests, as curl and k6 report them: connect, TLS handshake, time to first byte and
// body read, split by whether the attempt opened its connection or reused an established one.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "hdr/histogram.h"

namespace openloop::results {

/// The phases of one attempt. connect and tls (the connection's setup) are recorded with the first attempt a
/// connection carries, once they completed, whatever became of the attempt; ttfb for every attempt whose
/// response began to arrive (a response cut at its deadline or by a reset included); body for every attempt
/// that received a whole response. A phase still running when the attempt failed or timed out is not
/// recorded (its length is unknown): such attempts are in the error and timeout counts.
enum class Phase : std::uint8_t { connect, tls, ttfb, body, count_ };
inline constexpr std::size_t k_phases = static_cast<std::size_t>(Phase::count_);
/// "connect", "tls", "ttfb", "body" (JSON keys and the summary's labels).
std::string_view to_string(Phase p);

/// Significant digits of the phase histograms: 2 (1 % resolution) keeps the eight histograms of an interval
/// at about 300 KB instead of 2 MB; phases are read as percentiles, never subtracted from each other.
inline constexpr int k_phase_significant_digits = 2;
/// A phase histogram: 1 ns .. 1 h (as every latency histogram), 2 significant digits.
hdr::Histogram make_phase_histogram();

/// How long each phase of one attempt took, in nanoseconds; −1 where the phase did not happen.
struct AttemptPhases {
  std::array<std::int64_t, k_phases> ns{-1, -1, -1, -1};
  bool new_connection = false;  ///< the first attempt its connection carried (else: a reused connection)
  std::int64_t operator[](Phase p) const { return ns[static_cast<std::size_t>(p)]; }
  std::int64_t& operator[](Phase p) { return ns[static_cast<std::size_t>(p)]; }
};

/// Phase histograms (nanoseconds) of every attempt, for the phases it completed (Phase): those on a new
/// connection (`fresh`) and those on an established one (`reused`, whose connect and tls histograms stay
/// empty).
/// Mergeable exactly, like every other histogram.
struct PhaseStats {
  std::array<hdr::Histogram, k_phases> fresh = make_set();
  std::array<hdr::Histogram, k_phases> reused = make_set();

  /// Records one attempt's phases (those ≥ 0) in `fresh` or `reused`. Allocation-free.
  void record(const AttemptPhases& a);
  void add(const PhaseStats& o);
  void clear();
  bool empty() const;
  /// Whether every histogram has the phase layout (a spare interval must, to serve again).
  bool has_layout() const;
  hdr::Histogram& at(bool new_connection, Phase p) {
    return (new_connection ? fresh : reused)[static_cast<std::size_t>(p)];
  }
  const hdr::Histogram& at(bool new_connection, Phase p) const {
    return (new_connection ? fresh : reused)[static_cast<std::size_t>(p)];
  }

 private:
  static std::array<hdr::Histogram, k_phases> make_set();
};

}  // namespace openloop::results
