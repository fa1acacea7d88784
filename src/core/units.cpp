// Unit parsing: strict, with errors that name the input and show accepted forms.
#include "core/units.h"

#include <charconv>
#include <cmath>

#include <fmt/format.h>

namespace openloop {
namespace {

// Parses a non-negative decimal number prefix of s; returns characters consumed (0 = none).
std::size_t parse_number(std::string_view s, double& out) {
  std::size_t i = 0;
  bool digits = false;
  while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) != 0)) ++i, digits = true;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) != 0)) ++i, digits = true;
  }
  if (!digits) return 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + i, out);
  if (ec != std::errc() || ptr != s.data() + i) return 0;
  return i;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())) != 0) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())) != 0) s.remove_suffix(1);
  return s;
}

}  // namespace

Result<double> parse_rate(std::string_view text, std::string_view what) {
  auto bad = [&] {
    return usage_error(fmt::format(
        "{}: \"{}\" is not a rate; use e.g. 500/s, 30000/m (or 500, meaning per second)", what, text));
  };
  std::string_view s = trim(text);
  double value = 0;
  std::size_t n = parse_number(s, value);
  if (n == 0) return bad();
  s.remove_prefix(n);
  double per = 1.0;
  if (s.empty() || s == "/s") {
    per = 1.0;
  } else if (s == "/m" || s == "/min") {
    per = 60.0;
  } else if (s == "/h") {
    per = 3600.0;
  } else {
    return bad();
  }
  double rate = value / per;
  if (!std::isfinite(rate)) return bad();
  return rate;
}

Result<Nanos> parse_duration(std::string_view text, std::string_view what) {
  auto bad = [&] {
    return usage_error(fmt::format(
        "{}: \"{}\" is not a duration; use e.g. 250ms, 30s, 2m, 1h30m (units: ns, us, ms, s, m, h)", what,
        text));
  };
  std::string_view s = trim(text);
  if (s == "0") return Nanos(0);
  if (s.empty()) return bad();
  double total_ns = 0;
  while (!s.empty()) {
    double value = 0;
    std::size_t n = parse_number(s, value);
    if (n == 0) return bad();
    s.remove_prefix(n);
    std::size_t u = 0;
    while (u < s.size() && std::isalpha(static_cast<unsigned char>(s[u])) != 0) ++u;
    // "µs" is two bytes of UTF-8 followed by 's'.
    if (u == 0 && s.substr(0, 3) == "\xc2\xb5s") u = 3;
    std::string_view unit = s.substr(0, u);
    s.remove_prefix(u);
    double scale = 0;
    if (unit == "ns")
      scale = 1;
    else if (unit == "us" || unit == "\xc2\xb5s")
      scale = 1e3;
    else if (unit == "ms")
      scale = 1e6;
    else if (unit == "s")
      scale = 1e9;
    else if (unit == "m")
      scale = 60e9;
    else if (unit == "h")
      scale = 3600e9;
    else
      return bad();
    total_ns += value * scale;
  }
  if (!std::isfinite(total_ns) || total_ns > 9.2e18) return bad();
  return Nanos(static_cast<long long>(std::llround(total_ns)));
}

std::string format_duration(Nanos d) {
  const double ns = static_cast<double>(d.count());
  const double a = std::fabs(ns);
  if (d.count() == 0) return "0";
  if (a < 1e3) return fmt::format("{}ns", d.count());
  if (a < 1e6) return fmt::format("{:.3g}µs", ns / 1e3);
  if (a < 1e9) return fmt::format("{:.3g}ms", ns / 1e6);
  if (a < 60e9) return fmt::format("{:.3g}s", ns / 1e9);
  const auto total_s = static_cast<long long>(std::llround(ns / 1e9));
  if (total_s < 3600) return fmt::format("{}m{}s", total_s / 60, total_s % 60);
  return fmt::format("{}h{}m", total_s / 3600, (total_s % 3600) / 60);
}

std::string format_rate(double per_second) {
  return fmt::format("{:.6g}/s", per_second);
}

}  // namespace openloop
