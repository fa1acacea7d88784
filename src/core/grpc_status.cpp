// gRPC status codes and their names.
#include "core/grpc_status.h"

#include <array>

namespace openloop {
namespace {
constexpr std::array<std::string_view, k_grpc_status_codes> k_names = {
    "OK",        "CANCELLED",       "UNKNOWN",           "INVALID_ARGUMENT",   "DEADLINE_EXCEEDED",
    "NOT_FOUND", "ALREADY_EXISTS",  "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
    "ABORTED",   "OUT_OF_RANGE",    "UNIMPLEMENTED",     "INTERNAL",           "UNAVAILABLE",
    "DATA_LOSS", "UNAUTHENTICATED",
};
}  // namespace

std::string_view grpc_status_name(int code) {
  return code >= 0 && static_cast<std::size_t>(code) < k_names.size()
             ? k_names[static_cast<std::size_t>(code)]
             : std::string_view();
}

std::optional<int> grpc_status_code(std::string_view name) {
  for (std::size_t i = 0; i < k_names.size(); ++i)
    if (k_names[i] == name) return static_cast<int>(i);
  return std::nullopt;
}

}  // namespace openloop
