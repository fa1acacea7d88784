// Test helpers: bytes ↔ hex text, for comparing encodings with the reference's vectors.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace openloop::hdr::test {

/// Lowercase hex, no separators.
inline std::string to_hex(const std::vector<std::uint8_t>& bytes) {
  static constexpr char k_digits[] = "0123456789abcdef";
  std::string out;
  for (std::uint8_t b : bytes) {
    out.push_back(k_digits[b >> 4]);
    out.push_back(k_digits[b & 15]);
  }
  return out;
}

/// Parses hex, ignoring spaces (so vectors can be written in groups as the spec does).
inline std::vector<std::uint8_t> from_hex(std::string_view text) {
  std::vector<std::uint8_t> out;
  int high = -1;
  for (char c : text) {
    int v = -1;
    if (c >= '0' && c <= '9') v = c - '0';
    if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
    if (c >= 'A' && c <= 'F') v = c - 'A' + 10;
    if (v < 0) continue;
    if (high < 0) {
      high = v;
    } else {
      out.push_back(static_cast<std::uint8_t>(high * 16 + v));
      high = -1;
    }
  }
  return out;
}

}  // namespace openloop::hdr::test
