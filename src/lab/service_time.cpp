// Service-time parsing (strict, with messages that show the accepted forms) and sampling from an Rng.
#include "lab/service_time.h"

#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include "core/units.h"

namespace openloop::lab {
namespace {

constexpr std::string_view k_accepted =
    "accepted: a duration (1ms, 0), exp:MEAN, lognormal:MEAN,SIGMA, uniform:MIN..MAX";

tl::unexpected<Error> bad(std::string_view what, std::string_view text, std::string_view why) {
  return usage_error(
      fmt::format("{}: \"{}\" is not a service-time distribution ({}); {}", what, text, why, k_accepted));
}

Result<Nanos> duration(std::string_view text, std::string_view what, std::string_view whole) {
  auto d = parse_duration(text, what);
  if (!d) return bad(what, whole, fmt::format("\"{}\" is not a duration such as 250us or 1ms", text));
  return *d;
}

Result<double> sigma_of(std::string_view text, std::string_view what, std::string_view whole) {
  double v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(v) || v < 0 || v > 10) {
    return bad(what, whole, fmt::format("sigma \"{}\" must be a number in [0, 10]", text));
  }
  return v;
}

}  // namespace

ServiceTime ServiceTime::constant(Nanos d) {
  ServiceTime s;
  s.m_kind = Kind::constant;
  s.m_a = d;
  return s;
}

ServiceTime ServiceTime::exponential(Nanos mean) {
  ServiceTime s;
  s.m_kind = Kind::exponential;
  s.m_a = mean;
  return s;
}

ServiceTime ServiceTime::lognormal(Nanos mean, double sigma) {
  ServiceTime s;
  s.m_kind = Kind::lognormal;
  s.m_a = mean;
  s.m_sigma = sigma;
  // E[exp(mu + sigma Z)] = exp(mu + sigma^2 / 2), so this mu makes the mean come out as asked.
  s.m_mu = std::log(std::max(1.0, static_cast<double>(mean.count()))) - sigma * sigma / 2;
  return s;
}

ServiceTime ServiceTime::uniform(Nanos lo, Nanos hi) {
  ServiceTime s;
  s.m_kind = Kind::uniform;
  s.m_a = lo;
  s.m_b = hi;
  return s;
}

Result<ServiceTime> ServiceTime::parse(std::string_view text, std::string_view what) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) return constant(OPENLOOP_TRY(duration(text, what, text)));
  const std::string_view kind = text.substr(0, colon);
  const std::string_view args = text.substr(colon + 1);
  if (kind == "exp" || kind == "exponential") return exponential(OPENLOOP_TRY(duration(args, what, text)));
  if (kind == "lognormal") {
    const auto comma = args.find(',');
    if (comma == std::string_view::npos) return bad(what, text, "lognormal needs MEAN,SIGMA");
    const Nanos mean = OPENLOOP_TRY(duration(args.substr(0, comma), what, text));
    const double sigma = OPENLOOP_TRY(sigma_of(args.substr(comma + 1), what, text));
    return lognormal(mean, sigma);
  }
  if (kind == "uniform") {
    const auto dots = args.find("..");
    if (dots == std::string_view::npos) return bad(what, text, "uniform needs MIN..MAX");
    const Nanos lo = OPENLOOP_TRY(duration(args.substr(0, dots), what, text));
    const Nanos hi = OPENLOOP_TRY(duration(args.substr(dots + 2), what, text));
    if (hi < lo) return bad(what, text, "MIN must not exceed MAX");
    return uniform(lo, hi);
  }
  return bad(what, text, fmt::format("unknown kind \"{}\"", kind));
}

Nanos ServiceTime::sample(Rng& rng) const {
  switch (m_kind) {
    case Kind::constant:
      return m_a;
    case Kind::exponential:
      return Nanos(std::llround(static_cast<double>(m_a.count()) * rng.exponential()));
    case Kind::lognormal: {
      // Box-Muller: one standard normal from two uniforms (the second variate is dropped for simplicity).
      const double z =
          std::sqrt(-2.0 * std::log(rng.uniform_open0())) * std::cos(2.0 * M_PI * rng.uniform01());
      return Nanos(std::llround(std::exp(m_mu + m_sigma * z)));
    }
    case Kind::uniform:
      return m_a +
             Nanos(static_cast<long long>(rng.below(static_cast<std::uint64_t>((m_b - m_a).count()) + 1)));
  }
  return m_a;
}

Nanos ServiceTime::mean() const {
  return m_kind == Kind::uniform ? m_a + (m_b - m_a) / 2 : m_a;
}

std::string ServiceTime::to_string() const {
  switch (m_kind) {
    case Kind::constant:
      return format_duration(m_a);
    case Kind::exponential:
      return "exp:" + format_duration(m_a);
    case Kind::lognormal:
      return fmt::format("lognormal:{},{}", format_duration(m_a), m_sigma);
    case Kind::uniform:
      return fmt::format("uniform:{}..{}", format_duration(m_a), format_duration(m_b));
  }
  return "?";
}

}  // namespace openloop::lab
