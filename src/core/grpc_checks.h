// What a gRPC call's caller writes, checked the same wherever it is written (--grpc-success and -H on the
// command line, `grpc_success:` and `metadata:` in a plan file): sets of status names, metadata names and
// binary metadata values.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/error.h"

namespace openloop {

/// A binary metadata value (a key ending in -bin): base64, padded or not, as the gRPC over HTTP/2 spec says a
/// receiver must accept both.
bool is_base64(std::string_view v);

/// True for a metadata name openloop sets itself or gRPC reserves: content-type, te, grpc-* and HTTP/2's
/// pseudo-headers (:path...). `lower_name` in lower case.
bool is_reserved_grpc_metadata(std::string_view lower_name);

/// The codes of a comma-separated list of status names or codes ("OK", "OK,NOT_FOUND,UNAVAILABLE", "0,5"),
/// any set: bit c set = code c. An unknown name is a usage error beginning "`what` `names`:" and listing the
/// 17 names there are.
Result<std::uint32_t> parse_grpc_status_set(std::string_view names, std::string_view what);

}  // namespace openloop
