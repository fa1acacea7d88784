// Checks of what a gRPC call's caller writes (core/grpc_checks.h).
#include "core/grpc_checks.h"

#include <algorithm>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "core/grpc_status.h"

namespace openloop {

// A binary metadata value (a key ending in -bin): base64, padded or not, as the gRPC over HTTP/2 spec says
// a receiver must accept both.
bool is_base64(std::string_view v) {
  std::size_t pad = 0;
  while (pad < v.size() && pad < 2 && v[v.size() - 1 - pad] == '=') ++pad;
  if (pad > 0 && v.size() % 4 != 0) return false;
  if (v.size() % 4 == 1) return false;  // no length of base64 leaves one character over
  return std::all_of(v.begin(), v.end() - static_cast<std::ptrdiff_t>(pad), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
  });
}

bool is_reserved_grpc_metadata(std::string_view name) {
  return name == "content-type" || name == "te" || name.rfind("grpc-", 0) == 0 || name.rfind(':', 0) == 0;
}

namespace {
// A status by its name (NOT_FOUND) or its code (5), surrounding blanks ignored.
std::optional<int> status_code_of(std::string_view name) {
  while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
  while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
  if (auto code = grpc_status_code(name)) return code;
  if (name.empty() || name.size() > 2 ||
      !std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  const int code = name.size() == 1 ? name[0] - '0' : (name[0] - '0') * 10 + (name[1] - '0');
  if (code >= static_cast<int>(k_grpc_status_codes) || (name.size() == 2 && name[0] == '0'))
    return std::nullopt;
  return code;
}
}  // namespace

Result<std::uint32_t> parse_grpc_status_set(std::string_view names, std::string_view what) {
  std::uint32_t mask = 0;
  std::size_t at = 0;
  while (at <= names.size()) {
    const std::size_t comma = std::min(names.find(',', at), names.size());
    const std::string_view name = names.substr(at, comma - at);
    const auto code = status_code_of(name);
    if (!code) {
      std::string known;
      for (int c = 0; c < static_cast<int>(k_grpc_status_codes); ++c)
        known.append(known.empty() ? "" : ", ").append(grpc_status_name(c));
      return usage_error(
          fmt::format("{} {}: \"{}\" is not a gRPC status; expected names among {} (or their codes 0..16)",
                      what, names, name, known));
    }
    mask |= 1U << *code;
    at = comma + 1;
  }
  return mask;
}

}  // namespace openloop
