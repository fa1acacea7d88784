// gRPC's status codes (grpc/doc/statuscodes.md): their canonical names, as results, the summary and the
// request log name them, and the names read back from the command line and results files.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace openloop {

/// The codes gRPC defines: 0 OK … 16 UNAUTHENTICATED.
inline constexpr std::size_t k_grpc_status_codes = 17;

/// "OK", "CANCELLED", … "UNAUTHENTICATED" for 0..16; "" for anything else.
std::string_view grpc_status_name(int code);

/// The code of a canonical name (upper case, as grpc_status_name writes it), or nothing.
std::optional<int> grpc_status_code(std::string_view name);

}  // namespace openloop
