// Trace record checks (workload/trace_checks.h).
#include "workload/trace_checks.h"

#include <cctype>

#include <fmt/format.h>

namespace openloop::workload {

bool is_http_token(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (std::isalnum(static_cast<unsigned char>(c)) != 0) continue;
    if (std::string_view("!#$%&'*+-.^_`|~").find(c) == std::string_view::npos) return false;
  }
  return true;
}

Result<void> check_trace_header(const http::Header& h) {
  if (!is_http_token(h.name))
    return usage_error(fmt::format("header name \"{}\" is not a token (letters, digits and !#$%&'*+-.^_`|~)", h.name));
  if (h.value.find_first_of(std::string_view("\r\n\0", 3)) != std::string::npos)
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
