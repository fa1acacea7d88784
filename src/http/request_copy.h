// A request's parts copied into a RequestBuffer field by field, with a body of the caller's.
#pragma once

#include <string_view>

#include "http/request_buffer.h"
#include "http/request_parts.h"

namespace openloop::http {

/// Makes `out` the request `p` with `body` in place of its body (`p.body` for the same request): method,
/// target, authority, headers in order, finished with `p.flags`. `p` must not view into `out`. Reuses `out`'s
/// capacity (allocation-free once grown).
void copy_request(const RequestParts& p, std::string_view body, RequestBuffer& out);

}  // namespace openloop::http
