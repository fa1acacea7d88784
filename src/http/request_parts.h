// A rendered request in protocol-neutral parts: method, target, authority, the user's headers, body. What a
// codec serializes (HTTP/1.1 text today; HTTP/2 frames need the same parts).
#pragma once

#include <span>
#include <string_view>

namespace openloop::http {

/// One header as given by the user (name case preserved).
struct HeaderView {
  std::string_view name, value;
};

/// What the user's headers and the method decide beyond the parts themselves, so that HTTP/1.1 writes exactly
/// the request the user asked for (http/request_http1.h).
struct RequestFlags {
  bool given_host = false;         ///< the user gave Host: no Host line from the authority
  bool given_user_agent = false;   ///< the user gave User-Agent: no default one
  bool given_length = false;       ///< the user gave a (matching) Content-Length: none added
  bool length_when_empty = false;  ///< POST, PUT, PATCH: Content-Length: 0 even when the body is empty
};

/// A complete request. Views into one buffer owned by whoever rendered it: a RequestBuffer (an exchange's
/// templated request, or inside a ConstantRequest the plan keeps); valid while that buffer is unchanged.
struct RequestParts {
  std::string_view method;
  std::string_view target;              ///< path and query, e.g. "/api/item/7?r=eu"
  std::string_view authority;           ///< host[:port] from the URL (Host in HTTP/1.1, :authority in HTTP/2)
  std::span<const HeaderView> headers;  ///< the user's, in order (may include Host, User-Agent)
  std::string_view body;
  RequestFlags flags;
};

}  // namespace openloop::http
