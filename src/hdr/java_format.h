// Java's Formatter "%.Nf" for doubles (Locale.US), reproduced byte for byte for .hgrm and .hlog text.
#pragma once

#include <cstdint>
#include <string>

namespace openloop::hdr {

/// Java's String.format("%.{precision}f", value): the shortest round-trip decimal digits of value,
/// rounded half-up at `precision` decimals (C's printf rounds the binary value half-to-even instead).
/// NaN → "NaN", ±∞ → "Infinity"/"-Infinity", −0.0 → "-0.000". precision in [0, 30].
std::string java_fixed(double value, int precision);
/// Java "%{width}.{precision}f": java_fixed right-aligned with spaces to at least `width` characters.
std::string java_fixed(double value, int precision, int width);
/// Java "%{width}d": decimal, right-aligned with spaces to at least `width` characters.
std::string java_int(std::int64_t value, int width);

}  // namespace openloop::hdr
