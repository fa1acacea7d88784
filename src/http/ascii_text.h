// ASCII text helpers for HTTP's case-insensitive names and optional whitespace (RFC 9110 5.1, 5.6.3).
#pragma once

#include <cctype>
#include <string_view>

namespace openloop::http {

/// True when `a` and `b` are equal ignoring ASCII case (header names, cookie attribute names).
inline bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  }
  return true;
}

/// `s` without the spaces and tabs around it (HTTP's optional whitespace).
inline std::string_view trim_ows(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace openloop::http
