// The offered rate over a run as a piecewise-linear function of time, its integral Λ and Λ's exact inverse.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/time.h"

namespace openloop::workload {

/// One stage: ramp linearly from the previous stage's target (or the profile's start rate) to `target_rate`
/// (requests/s) over `duration`. A zero-length stage is a step.
struct Stage {
  Nanos duration;
  double target_rate;
};

/// Offered rate as a function of time since the run's start: piecewise linear. Λ(t) = ∫0^t λ.
/// Immutable after construction; cheap to copy (two small vectors). Const methods are thread-safe.
class RateProfile {
 public:
  /// `rate` requests/s (finite, ≥ 0) held for `duration` (≥ 0).
  static RateProfile constant(double rate, Nanos duration);
  /// k6-style "30s:100/s,1m:500/s,30s:0/s" (duration:rate pairs; rates as core/units.h parse_rate; durations
  /// as parse_duration); the first stage ramps from `start_rate`. Errors (usage) name `what` (e.g.
  /// "--stages"), the offending item (1-based position and text) and the accepted form. Stages that add up to
  /// zero duration, or to more than ~292 years, are refused.
  static Result<RateProfile> parse_stages(std::string_view text, std::string_view what,
                                          double start_rate = 0.0);
  /// Preconditions (asserted): durations ≥ 0, rates and `start_rate` finite and ≥ 0, total fits in Nanos.
  static RateProfile from_stages(std::vector<Stage> stages, double start_rate);

  /// Total duration (sum of the stages').
  Nanos duration() const { return m_duration; }
  /// λ(t) in requests/s; 0 outside [0, duration). Right-continuous: at a step, the rate after the step.
  double rate_at(Nanos t) const;
  /// Λ(t): expected arrivals in [0, t); clamped to [0, Λ(duration)].
  double cumulative(Nanos t) const;
  /// The mean rate over [from, to) in requests/s: (Λ(to) − Λ(from)) / (to − from); rate_at(from) when
  /// to ≤ from.
  double mean_rate(Nanos from, Nanos to) const;
  /// Smallest t with Λ(t) ≥ x, for 0 ≤ x ≤ Λ(duration); Nanos::max() when x > Λ(duration) (or x is NaN).
  /// Exact inverse of the piecewise-quadratic Λ (the quadratic solved per segment in its numerically stable
  /// form), rounded to the nearest nanosecond. Where Λ is flat at level x (a zero-rate stretch), the end of
  /// the flat stretch is returned, i.e. inf{t : Λ(t) > x} for x < Λ(duration): an arrival never lands inside
  /// a stretch where the offered rate is zero (a leading "10s:0/s" pause puts arrival 0 at 10 s, not at 0).
  /// A single constant stage costs one multiplication; otherwise a binary search over the segments.
  Nanos inverse(double x) const;
  /// inverse(x) with a forward cursor for callers whose x only increases (the arrival schedule): `cursor`
  /// starts at 0 and is advanced in place; the result is identical to inverse(x) whatever the cursor holds.
  Nanos inverse(double x, std::size_t& cursor) const;
  /// Λ(duration): the expected number of arrivals over the whole profile.
  double total_expected() const { return m_total; }
  /// Highest rate reached on a stretch of positive length (requests/s); 0 for an empty profile.
  double max_rate() const { return m_max_rate; }
  /// The stages as given (zero-length steps included).
  const std::vector<Stage>& stages() const { return m_stages; }
  /// The rate at t = 0 before the first stage's ramp.
  double start_rate() const { return m_start_rate; }

 private:
  /// A stretch of positive length with linear rate r0 → r1; zero-length stages leave no segment.
  struct Segment {
    Nanos start;
    Nanos length;
    double seconds;     ///< length in seconds
    double rate0;       ///< requests/s at start
    double rate1;       ///< requests/s at start + length
    double half_slope;  ///< (rate1 − rate0) / (2 · seconds): Λ's quadratic coefficient, requests/s²
    double cum_start;   ///< Λ(start)
    double cum_end;     ///< Λ(start + length)
  };

  RateProfile() = default;
  std::size_t segment_at(Nanos t) const;
  std::size_t segment_for(double x) const;
  Nanos inverse_in(const Segment& seg, double x) const;

  std::vector<Stage> m_stages;
  std::vector<Segment> m_segments;
  double m_start_rate = 0.0;
  Nanos m_duration{0};
  double m_total = 0.0;
  double m_max_rate = 0.0;
  /// Nanoseconds per arrival when the profile is one constant segment (0 otherwise): the hot-path shortcut.
  double m_constant_ns_per_arrival = 0.0;
};

}  // namespace openloop::workload
