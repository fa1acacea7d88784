// Building constant requests: validated once, their parts and HTTP/1.1 bytes reused for every send.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "http/constant_request.h"
#include "net/url.h"

namespace openloop::http {

/// One request header, as the user gave it (name case preserved).
struct Header {
  std::string name, value;
};

/// The User-Agent sent when the user gives none: "openloop/<version>".
std::string_view default_user_agent();

/// Builds a constant request once (it is reused for every send): method, the URL's target and host_header
/// (the authority), the user's headers in order, the body; flags from the headers (Host, User-Agent,
/// Content-Length given) and the method (POST, PUT, PATCH send Content-Length: 0 for an empty body).
/// Errors (usage): method not a token; header name not a token; value containing CR, LF or NUL; a
/// Content-Length that does not match the body; Transfer-Encoding (the body is always sent with
/// Content-Length); a target that is empty or contains spaces/control characters. Each names the offending
/// item and what is accepted.
Result<ConstantRequest> build_request(std::string_view method, const net::Url& url,
                                      const std::vector<Header>& headers, std::string_view body);

/// build_request's HTTP/1.1 bytes (http::write_http1): request line "METHOD target HTTP/1.1", Host (unless
/// the user gave one), User-Agent: openloop/<ver> (unless given), the user's headers in order,
/// Content-Length when there is a body or the method is POST/PUT/PATCH (unless the user gave a matching
/// one), a blank line, then the body. Same errors.
Result<std::string> render_request(std::string_view method, const net::Url& url,
                                   const std::vector<Header>& headers, std::string_view body);

/// Parses "Name: value" as given to -H (spaces/tabs around the value trimmed; the value may be empty).
/// Error (usage) quotes the flag value and says "use 'Name: value'".
Result<Header> parse_header_arg(std::string_view text);

}  // namespace openloop::http
