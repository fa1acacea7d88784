// Target URLs: parsing http(s)://host[:port][/path][?query] into what the connector and request writer need.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.h"

namespace openloop::net {

/// A parsed absolute http or https URL.
struct Url {
  std::string scheme;       ///< "http" or "https" (lower case whatever the input's case)
  std::string host;         ///< name or IP literal; IPv6 without brackets
  std::uint16_t port = 0;   ///< explicit, or the scheme's default (80 / 443); never 0 after parsing
  std::string target;       ///< path + query as sent on the request line; "/" when the URL has no path
  bool tls = false;         ///< scheme is https
  std::string host_header;  ///< Host header value: host, or host:port when the port is not the default;
                            ///< IPv6 literals in brackets
};

/// Parses http(s)://host[:port][/path][?query] (a #fragment is dropped: it is never sent).
/// `what` names the input in errors (e.g. "URL", "--target"). Errors (usage) quote what was found and say
/// what is accepted: missing or unsupported scheme, user info, empty or malformed host, bad IPv6 literal,
/// port out of 1..65535, spaces or control characters.
Result<Url> parse_url(std::string_view text, std::string_view what = "URL");

}  // namespace openloop::net
