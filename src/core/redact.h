// Keeping secrets out of every output: credential headers and the user info of URLs are shown redacted.
#pragma once

#include <string>
#include <string_view>

namespace openloop {

/// What a redacted secret is replaced with.
inline constexpr std::string_view k_redacted = "[redacted]";

/// True for headers that carry credentials: Authorization, Proxy-Authorization, Cookie (any case).
bool is_credential_header(std::string_view name);

/// "Name: value" with the value replaced by k_redacted when Name is a credential header; other lines
/// unchanged (a line without ':' too).
std::string redact_header_line(std::string_view line);

/// The URL with its user info ("user:password@" in the authority) replaced by k_redacted; other text
/// unchanged. "https://u:p@h/x" → "https://[redacted]@h/x".
std::string redact_url(std::string_view url);

}  // namespace openloop
