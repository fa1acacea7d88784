// How the probe writes numbers for people: rates with at most one decimal ("300/s", "49.9/s").
#pragma once

#include <cmath>
#include <string>

#include <fmt/format.h>

namespace openloop::procedures {

/// Requests per second with one decimal, none when it would be ".0": "300/s", "49.9/s".
inline std::string rate_of(double per_second) {
  const double tenths = std::round(per_second * 10) / 10;
  return std::fabs(tenths - std::round(tenths)) < 1e-9 ? fmt::format("{:.0f}/s", tenths)
                                                       : fmt::format("{:.1f}/s", tenths);
}

}  // namespace openloop::procedures
