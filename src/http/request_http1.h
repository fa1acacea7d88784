// The HTTP/1.1 form of a request: the one serializer, for constant requests (once, at plan time) and for
// rendered ones (per attempt, by the HTTP/1.1 codec).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "http/request_parts.h"

namespace openloop::http {

/// A header added to one attempt's request after the user's (the remaining deadline, --send-deadline): its
/// name and its integer value. Empty name: none.
struct ExtraHeader {
  std::string_view name;
  std::int64_t value = 0;
};

/// Writes the HTTP/1.1 request into `out` (cleared first; its capacity is reused): "METHOD target HTTP/1.1",
/// Host: authority (unless given), User-Agent: openloop/<version> (unless given), the user's headers in
/// order, Content-Length when the body is not empty or flags.length_when_empty (unless given), the extra
/// header, a blank line, the body. No validation (the parts were validated when built). Allocation-free once
/// `out` has the capacity.
void write_http1(const RequestParts& parts, ExtraHeader extra, std::string& out);

/// The size write_http1 writes, without writing it. Allocation-free.
std::size_t http1_size(const RequestParts& parts, ExtraHeader extra);

}  // namespace openloop::http
