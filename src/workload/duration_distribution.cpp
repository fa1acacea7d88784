// Duration distributions: strict parsing with messages that list the accepted forms, and sampling from an
// Rng.
#include "workload/duration_distribution.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "core/units.h"

namespace openloop::workload {
namespace {

constexpr std::string_view k_accepted =
    "accepted: a duration (1s, 250ms, 0), exp:MEAN, lognormal:MEAN,SIGMA, uniform:MIN..MAX";

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())) != 0) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())) != 0) s.remove_suffix(1);
  return s;
}

tl::unexpected<Error> bad(std::string_view what, std::string_view text, std::string_view why) {
  return usage_error(
      fmt::format("{}: \"{}\" is not a duration distribution ({}); {}", what, text, why, k_accepted));
}

Result<Nanos> duration_of(std::string_view part, std::string_view what, std::string_view whole) {
  auto d = parse_duration(trim(part), what);
  if (!d)
    return bad(what, whole, fmt::format("\"{}\" is not a duration such as 250us, 1ms or 2s", trim(part)));
  return *d;
}

Result<double> sigma_of(std::string_view part, std::string_view what, std::string_view whole) {
  const std::string_view text = trim(part);
  double v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(v) || v < 0 ||
      v > 10) {
    return bad(what, whole, fmt::format("sigma \"{}\" must be a number in [0, 10]", text));
  }
  return v;
}

// Rounds a non-negative number of nanoseconds, saturating instead of overflowing (an exponential tail can
// exceed the representable range when the mean is years).
Nanos saturating_nanos(double ns) {
  constexpr double k_max = 9.2e18;
  if (!(ns < k_max)) return Nanos(static_cast<Nanos::rep>(k_max));
  return Nanos(std::llround(std::max(ns, 0.0)));
}

// Lossless text for a duration that parse_duration reads back exactly: the largest unit (s, ms, us, ns) the
// value reaches, with the exact decimal fraction ("1.5s", "1.234567ms", "90s", "250us", "0").
std::string exact_duration(Nanos d) {
  const auto ns = static_cast<std::uint64_t>(std::max<Nanos::rep>(d.count(), 0));
  if (ns == 0) return "0";
  struct Unit {
    std::uint64_t scale;
    int digits;
    const char* name;
  };
  constexpr Unit k_units[] = {{1'000'000'000, 9, "s"}, {1'000'000, 6, "ms"}, {1'000, 3, "us"}, {1, 0, "ns"}};
  for (const Unit& u : k_units) {
    if (ns < u.scale) continue;
    std::string text = std::to_string(ns / u.scale);
    if (const std::uint64_t rest = ns % u.scale; rest != 0) {
      std::string fraction = fmt::format("{:0{}}", rest, u.digits);
      while (fraction.back() == '0') fraction.pop_back();
      text += "." + fraction;
    }
    return text + u.name;
  }
  return "0";
}

}  // namespace

DurationDistribution DurationDistribution::constant(Nanos d) {
  DurationDistribution s;
  s.m_a = d;
  return s;
}

DurationDistribution DurationDistribution::exponential(Nanos mean) {
  DurationDistribution s;
  s.m_kind = Kind::exponential;
  s.m_a = mean;
  return s;
}

DurationDistribution DurationDistribution::lognormal(Nanos mean, double sigma) {
  DurationDistribution s;
  s.m_kind = Kind::lognormal;
  s.m_a = mean;
  s.m_sigma = sigma;
  // E[exp(mu + sigma·Z)] = exp(mu + sigma²/2), so this mu makes the mean come out as asked.
  s.m_mu = std::log(std::max(1.0, static_cast<double>(mean.count()))) - sigma * sigma / 2;
  return s;
}

DurationDistribution DurationDistribution::uniform(Nanos lo, Nanos hi) {
  DurationDistribution s;
  s.m_kind = Kind::uniform;
  s.m_a = lo;
  s.m_b = hi;
  return s;
}

Result<DurationDistribution> DurationDistribution::parse(std::string_view text, std::string_view what) {
  const std::string_view whole = trim(text);
  const auto colon = whole.find(':');
  if (colon == std::string_view::npos) return constant(OPENLOOP_TRY(duration_of(whole, what, whole)));
  const std::string_view kind = trim(whole.substr(0, colon));
  const std::string_view args = whole.substr(colon + 1);
  if (kind == "exp" || kind == "exponential")
    return exponential(OPENLOOP_TRY(duration_of(args, what, whole)));
  if (kind == "lognormal") {
    const auto comma = args.find(',');
    if (comma == std::string_view::npos) return bad(what, whole, "lognormal needs MEAN,SIGMA");
    const Nanos mean = OPENLOOP_TRY(duration_of(args.substr(0, comma), what, whole));
    const double sigma = OPENLOOP_TRY(sigma_of(args.substr(comma + 1), what, whole));
    return lognormal(mean, sigma);
  }
  if (kind == "uniform") {
    const auto dots = args.find("..");
    if (dots == std::string_view::npos) return bad(what, whole, "uniform needs MIN..MAX");
    const Nanos lo = OPENLOOP_TRY(duration_of(args.substr(0, dots), what, whole));
    const Nanos hi = OPENLOOP_TRY(duration_of(args.substr(dots + 2), what, whole));
    if (hi < lo) return bad(what, whole, "MIN must not exceed MAX");
    return uniform(lo, hi);
  }
  return bad(what, whole, fmt::format("unknown kind \"{}\"", kind));
}

Nanos DurationDistribution::sample(Rng& rng) const {
  switch (m_kind) {
    case Kind::constant:
      return m_a;
    case Kind::exponential:
      return saturating_nanos(static_cast<double>(m_a.count()) * rng.exponential());
    case Kind::lognormal: {
      if (m_a == Nanos(0)) return m_a;
      // Box-Muller: one standard normal from two uniforms (the second variate is dropped: simpler, no state).
      const double z = std::sqrt(-2.0 * std::log(rng.uniform_open0())) *
                       std::cos(2.0 * std::numbers::pi * rng.uniform01());
      return saturating_nanos(std::exp(m_mu + m_sigma * z));
    }
    case Kind::uniform:
      return m_a +
             Nanos(static_cast<Nanos::rep>(rng.below(static_cast<std::uint64_t>((m_b - m_a).count()) + 1)));
  }
  return m_a;
}

Nanos DurationDistribution::mean() const {
  return m_kind == Kind::uniform ? m_a + (m_b - m_a) / 2 : m_a;
}

std::string DurationDistribution::to_string() const {
  switch (m_kind) {
    case Kind::constant:
      return exact_duration(m_a);
    case Kind::exponential:
      return "exp:" + exact_duration(m_a);
    case Kind::lognormal:
      return fmt::format("lognormal:{},{}", exact_duration(m_a), m_sigma);
    case Kind::uniform:
      return fmt::format("uniform:{}..{}", exact_duration(m_a), exact_duration(m_b));
  }
  return "?";
}

}  // namespace openloop::workload
