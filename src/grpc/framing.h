// gRPC's framing on HTTP/2 (grpc/doc/PROTOCOL-HTTP2.md): the 5-byte length prefix of each message and the
// grpc-timeout header's value.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/time.h"

namespace openloop::grpc {

/// The prefix's size: a compressed flag (0: not compressed) and the message's length, 4 bytes big-endian.
inline constexpr std::size_t k_prefix_size = 5;

/// Appends `message` to `out` as one uncompressed length-prefixed message. `message` must be shorter than 4
/// GiB.
void append_framed(std::string_view message, std::string& out);

/// grpc-timeout's value for a deadline `timeout` from now: at most 8 digits and a unit, the coarsest unit
/// that says it exactly ("50m" for 50 ms, "1500u" for 1.5 ms), else the finest that fits, rounded up so the
/// server never sees a shorter deadline than the client keeps. `timeout` > 0.
std::string grpc_timeout(Nanos timeout);

}  // namespace openloop::grpc
