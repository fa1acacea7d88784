// Allocation-free budget parsing for the per-request deadline header.
#include "lab/deadline_header.h"

#include <cmath>

namespace openloop::lab {

std::optional<Nanos> parse_budget(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  double value = 0;
  double scale = 1;
  bool digits = false;
  bool fraction = false;
  std::size_t i = 0;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c >= '0' && c <= '9') {
      digits = true;
      if (fraction) scale /= 10;
      value = value * 10 + (c - '0');
    } else if (c == '.' && !fraction) {
      fraction = true;
    } else {
      break;
    }
  }
  if (!digits) return std::nullopt;
  value *= scale;
  const std::string_view unit = s.substr(i);
  double ns_per_unit = 0;
  if (unit.empty() || unit == "ms") {
    ns_per_unit = 1e6;
  } else if (unit == "s") {
    ns_per_unit = 1e9;
  } else if (unit == "us") {
    ns_per_unit = 1e3;
  } else if (unit == "ns") {
    ns_per_unit = 1;
  } else {
    return std::nullopt;
  }
  const double ns = value * ns_per_unit;
  if (!std::isfinite(ns) || ns > 9e18) return std::nullopt;
  return Nanos(static_cast<long long>(ns));
}

}  // namespace openloop::lab
