// gRPC's framing on HTTP/2 (grpc/doc/PROTOCOL-HTTP2.md): the 5-byte length prefix of each message
// (grpc-timeout's value: core/grpc_timeout.h).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace openloop::grpc {

/// The prefix's size: a compressed flag (0: not compressed) and the message's length, 4 bytes big-endian.
inline constexpr std::size_t k_prefix_size = 5;

/// Appends `message` to `out` as one uncompressed length-prefixed message. `message` must be shorter than 4
/// GiB.
void append_framed(std::string_view message, std::string& out);

}  // namespace openloop::grpc
