// A request that varies nothing: its parts and its HTTP/1.1 bytes, built once (at plan time) and shared by
// every send.
#pragma once

#include <string>
#include <string_view>

#include "http/request_buffer.h"
#include "http/request_parts.h"

namespace openloop::http {

/// A constant request: the parts (for any protocol) and their HTTP/1.1 form (http/request_http1.h) written
/// once, which the HTTP/1.1 codec sends as they are when the attempt adds no header. Built by
/// http::build_request (validated). Immutable once built; copies are independent. An empty one (default) has
/// empty parts and bytes.
class ConstantRequest {
 public:
  ConstantRequest() = default;
  /// Takes finished parts and writes their HTTP/1.1 form.
  explicit ConstantRequest(RequestBuffer parts);

  const RequestParts& parts() const { return m_parts.parts(); }
  /// The complete HTTP/1.1 request, without any per-attempt header.
  std::string_view http1() const { return m_http1; }

 private:
  RequestBuffer m_parts;
  std::string m_http1;
};

}  // namespace openloop::http
