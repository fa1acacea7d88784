// Java-compatible fixed-point formatting: shortest digits from std::to_chars, then decimal half-up rounding.
#include "hdr/java_format.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string_view>

namespace openloop::hdr {

namespace {

std::string pad_left(std::string text, int width) {
  const auto w = static_cast<std::size_t>(width < 0 ? 0 : width);
  if (text.size() < w) text.insert(0, w - text.size(), ' ');
  return text;
}

}  // namespace

std::string java_fixed(double value, int precision) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  const bool negative = std::signbit(value);
  const int decimals = precision < 0 ? 0 : (precision > 30 ? 30 : precision);

  // Shortest round-trip digits as d.ddde±X: value = 0.dddd × 10^(X + 1).
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, std::fabs(value), std::chars_format::scientific);
  const std::string_view sci(buf, static_cast<std::size_t>(res.ptr - buf));
  const std::size_t e_pos = sci.find('e');
  std::string digits;
  for (char c : sci.substr(0, e_pos)) {
    if (c != '.') digits.push_back(c);
  }
  const int exponent = std::atoi(std::string(sci.substr(e_pos + 1)).c_str());
  const int int_digits = exponent + 1;  // digits before the decimal point (may be ≤ 0)

  // Lay the digits out as integer part + exactly `decimals` fraction digits + one rounding digit.
  std::string integer_part;
  std::string fraction;  // all fraction digits available
  if (int_digits > 0) {
    for (int i = 0; i < int_digits; ++i) {
      integer_part.push_back(static_cast<std::size_t>(i) < digits.size() ? digits[static_cast<std::size_t>(i)]
                                                                         : '0');
    }
    if (static_cast<std::size_t>(int_digits) < digits.size()) {
      fraction = digits.substr(static_cast<std::size_t>(int_digits));
    }
  } else {
    integer_part = "0";
    fraction.assign(static_cast<std::size_t>(-int_digits), '0');
    fraction += digits;
  }
  const bool round_up = fraction.size() > static_cast<std::size_t>(decimals) &&
                        fraction[static_cast<std::size_t>(decimals)] >= '5';
  fraction.resize(static_cast<std::size_t>(decimals), '0');

  std::string number = integer_part + fraction;
  if (round_up) {
    std::size_t i = number.size();
    while (i > 0) {
      --i;
      if (number[i] == '9') {
        number[i] = '0';
      } else {
        ++number[i];
        break;
      }
      if (i == 0) number.insert(0, 1, '1');
    }
  }
  const std::size_t int_len = number.size() - static_cast<std::size_t>(decimals);
  std::string out = negative ? "-" : "";
  out += number.substr(0, int_len);
  if (decimals > 0) {
    out.push_back('.');
    out += number.substr(int_len);
  }
  return out;
}

std::string java_fixed(double value, int precision, int width) {
  return pad_left(java_fixed(value, precision), width);
}

std::string java_int(std::int64_t value, int width) {
  return pad_left(std::to_string(value), width);
}

}  // namespace openloop::hdr
