// Trace record checks (workload/trace_checks.h).
#include "workload/trace_checks.h"

#include <algorithm>
#include <array>

#include <fmt/format.h>

namespace openloop::workload {

namespace {

// RFC 9110's tchar, as a table: a trace checks every method and header name it reads.
constexpr std::array<bool, 256> k_tchar = [] {
  std::array<bool, 256> t{};
  for (int c = '0'; c <= '9'; ++c) t[static_cast<std::size_t>(c)] = true;
  for (int c = 'a'; c <= 'z'; ++c)
    t[static_cast<std::size_t>(c)] = t[static_cast<std::size_t>(c - 'a' + 'A')] = true;
  for (char c : std::string_view("!#$%&'*+-.^_`|~")) t[static_cast<unsigned char>(c)] = true;
  return t;
}();

}  // namespace

bool is_http_token(std::string_view s) {
  if (s.empty()) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return k_tchar[static_cast<unsigned char>(c)]; });
}

Result<void> check_trace_header(const http::Header& h) {
  if (!is_http_token(h.name))
    return usage_error(fmt::format("header name \"{}\" is not a token (letters, digits and !#$%&'*+-.^_`|~)", h.name));
  // One pass over the value (find_first_of would call memchr once per character of it).
  if (std::any_of(h.value.begin(), h.value.end(), [](char c) { return c == '\r' || c == '\n' || c == '\0'; }))
    return usage_error(fmt::format("header \"{}\": the value holds CR, LF or NUL; a value is one line", h.name));
  return {};
}

Result<void> check_trace_target(std::string_view target) {
  for (char c : target) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u == 0x7F)
      return usage_error(fmt::format("target \"{}\": holds a space or a control character; percent-encode it",
                                     target.substr(0, 200)));
  }
  return {};
}

}  // namespace openloop::workload
