// Service-time distributions ("1ms", "exp:1ms", "lognormal:1ms,0.5", "uniform:1ms..3ms", "0"): parsing and
// sampling.
#pragma once

#include <string>
#include <string_view>

#include "core/error.h"
#include "core/rng.h"
#include "core/time.h"

namespace openloop::lab {

/// A distribution of durations. Every kind is parameterised so that mean() is the mean of sample(), which
/// makes a model's capacity K / mean() whatever the shape.
class ServiceTime {
 public:
  enum class Kind { constant, exponential, lognormal, uniform };

  /// A constant duration (0 allowed).
  static ServiceTime constant(Nanos d);
  /// Exponential with the given mean.
  static ServiceTime exponential(Nanos mean);
  /// Log-normal with the given mean and shape sigma (standard deviation of the underlying normal, ≥ 0).
  static ServiceTime lognormal(Nanos mean, double sigma);
  /// Uniform on [lo, hi], lo ≤ hi.
  static ServiceTime uniform(Nanos lo, Nanos hi);

  /// Parses the forms in this file's first line. `what` names the input in errors (e.g. "--service").
  /// Errors (exit code usage) name the input, the value and the accepted forms.
  static Result<ServiceTime> parse(std::string_view text, std::string_view what);

  /// Draws one duration (≥ 0) from rng.
  Nanos sample(Rng& rng) const;
  /// Mean of the distribution.
  Nanos mean() const;
  Kind kind() const { return m_kind; }
  bool is_zero() const { return m_kind == Kind::constant && m_a == Nanos(0); }
  /// Canonical text that parse() accepts back, e.g. "exp:1ms".
  std::string to_string() const;

 private:
  Kind m_kind = Kind::constant;
  Nanos m_a{0};        // constant value, mean, or lower bound
  Nanos m_b{0};        // upper bound (uniform)
  double m_sigma = 0;  // lognormal shape
  double m_mu = 0;     // lognormal location, derived from mean and sigma
};

}  // namespace openloop::lab
