// HTTP/1.1 request rendering: the bytes of a request are built and validated once, then reused for every
// send.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "net/url.h"

namespace openloop::http {

/// One request header, as the user gave it (name case preserved).
struct Header {
  std::string name, value;
};

/// The User-Agent sent when the user gives none: "openloop/<version>".
std::string_view default_user_agent();

/// Renders a complete HTTP/1.1 request once (the bytes are reused for every request): request line
/// "METHOD target HTTP/1.1", Host (unless the user gave one), User-Agent: openloop/<ver> (unless given), the
/// user's headers in order, Content-Length when there is a body or the method is POST/PUT/PATCH (unless the
/// user gave a matching one), a blank line, then the body. Errors (usage): method not a token; header name
/// not a token; value containing CR, LF or NUL; a Content-Length that does not match the body;
/// Transfer-Encoding (the body is always sent with Content-Length); a target that is empty or contains
/// spaces/control characters. Each names the offending item and what is accepted.
Result<std::string> render_request(std::string_view method, const net::Url& url,
                                   const std::vector<Header>& headers, std::string_view body);

/// Parses "Name: value" as given to -H (spaces/tabs around the value trimmed; the value may be empty).
/// Error (usage) quotes the flag value and says "use 'Name: value'".
Result<Header> parse_header_arg(std::string_view text);

}  // namespace openloop::http
