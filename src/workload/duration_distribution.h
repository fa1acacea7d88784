// Distributions of durations (think times, pacing, the lab's service times): "1s", "exp:1s",
// "lognormal:1ms,0.5", "uniform:0.5s..1.5s", "0" — parsing, sampling and canonical text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.h"
#include "core/rng.h"
#include "core/time.h"

namespace openloop::workload {

/// A distribution of non-negative durations. Every kind is parameterised by its mean, so mean() is the mean
/// of sample() whatever the shape: a think time Z keeps Little's law N = X·(R + Z) exact, and a service time
/// S keeps a model's capacity K / S.
///  - "1s", "0"                : constant (any core/units.h duration)
///  - "exp:1s"                 : exponential with mean 1 s ("exponential:1s" is accepted too)
///  - "lognormal:1ms,0.5"      : log-normal with MEAN 1 ms and shape sigma 0.5 (the standard deviation of the
///                               underlying normal, 0..10); the median is MEAN·e^(−sigma²/2)
///  - "uniform:0.5s..1.5s"     : uniform on [MIN, MAX] (whole nanoseconds), MIN ≤ MAX
/// Immutable and trivially copyable; const methods are thread-safe. sample() draws from the caller's Rng,
/// never allocates and never fails.
class DurationDistribution {
 public:
  enum class Kind : std::uint8_t { constant, exponential, lognormal, uniform };

  /// Always `d` (≥ 0). The default-constructed distribution is constant 0.
  static DurationDistribution constant(Nanos d);
  /// Exponential with the given mean (≥ 0).
  static DurationDistribution exponential(Nanos mean);
  /// Log-normal with the given mean (≥ 0) and shape sigma (finite, ≥ 0).
  static DurationDistribution lognormal(Nanos mean, double sigma);
  /// Uniform on [lo, hi] in whole nanoseconds, 0 ≤ lo ≤ hi.
  static DurationDistribution uniform(Nanos lo, Nanos hi);

  /// Parses the forms above (surrounding spaces ignored). `what` names the input in errors (e.g. "--think",
  /// "plan.yaml:12:14: scenarios.shop.think"). Errors (usage) quote the text, say why, and list the accepted
  /// forms.
  static Result<DurationDistribution> parse(std::string_view text, std::string_view what);

  /// Draws one duration ≥ 0 (saturating at ~292 years). Allocation-free; the same Rng state gives the same
  /// value.
  Nanos sample(Rng& rng) const;
  /// Mean of the distribution (exact for constant, exponential and lognormal; uniform: (lo + hi) / 2 rounded
  /// down).
  Nanos mean() const;
  Kind kind() const { return m_kind; }
  /// True for the constant 0 (e.g. "no think time").
  bool is_zero() const { return m_kind == Kind::constant && m_a == Nanos(0); }
  /// Canonical text that parse() accepts back, e.g. "exp:1s", "uniform:500ms..1.5s".
  std::string to_string() const;

  friend bool operator==(const DurationDistribution&, const DurationDistribution&) = default;

 private:
  Kind m_kind = Kind::constant;
  Nanos m_a{0};        ///< constant value, mean, or lower bound
  Nanos m_b{0};        ///< upper bound (uniform)
  double m_sigma = 0;  ///< lognormal shape
  double m_mu = 0;     ///< lognormal location, derived from mean and sigma
};

}  // namespace openloop::workload
