// Credential headers and URL user info, redacted.
#include "core/redact.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace openloop {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

bool is_credential_header(std::string_view name) {
  static constexpr std::array<std::string_view, 3> k_names = {"authorization", "proxy-authorization",
                                                              "cookie"};
  const std::string_view n = trim(name);
  return std::any_of(k_names.begin(), k_names.end(), [n](std::string_view k) { return iequals(n, k); });
}

std::string redact_header_line(std::string_view line) {
  const auto colon = line.find(':');
  if (colon == std::string_view::npos || !is_credential_header(line.substr(0, colon))) return std::string(line);
  return std::string(line.substr(0, colon)) + ": " + std::string(k_redacted);
}

std::string redact_url(std::string_view url) {
  const auto scheme = url.find("://");
  const std::size_t from = scheme == std::string_view::npos ? 0 : scheme + 3;
  const std::size_t end = std::min(url.find_first_of("/?#", from), url.size());
  const auto at = url.substr(from, end - from).rfind('@');
  if (at == std::string_view::npos) return std::string(url);
  return std::string(url.substr(0, from)) + std::string(k_redacted) + std::string(url.substr(from + at));
}

}  // namespace openloop
