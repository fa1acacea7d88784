// ConstantRequest: parts kept, HTTP/1.1 bytes written once.
#include "http/constant_request.h"

#include <utility>

#include "http/request_http1.h"

namespace openloop::http {

ConstantRequest::ConstantRequest(RequestBuffer parts) : m_parts(std::move(parts)) {
  write_http1(m_parts.parts(), ExtraHeader{}, m_http1);
}

}  // namespace openloop::http
