// One Set-Cookie header read as RFC 6265 section 5.2 says a user agent reads it: the name and value, and the
// attributes a load test meets (Domain, Path, Expires, Max-Age, Secure); the others are ignored.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace openloop::http {

/// A parsed Set-Cookie. Views into the header text given to parse_set_cookie (valid while it is).
struct SetCookie {
  std::string_view name;   ///< not empty
  std::string_view value;  ///< as sent (double quotes, if any, are part of it)
  std::string_view
      domain;  ///< the last Domain attribute, leading '.' removed, as written (any case); empty: none
  std::string_view path;  ///< the last Path attribute that begins with '/'; empty: none (the default path)
  /// Max-Age in seconds (≤ 0: the cookie expires at once); wins over Expires.
  std::optional<std::int64_t> max_age;
  /// Expires as seconds since the Unix epoch (the last one that parsed).
  std::optional<std::int64_t> expires;
  bool secure = false;  ///< Secure: sent over https only
};

/// Parses one Set-Cookie header value. Nullopt when RFC 6265 says to ignore the whole header: no '=' in the
/// name-value pair, or an empty name. Attributes that do not parse (an Expires that is no date, a Max-Age
/// that is no number, an empty Domain) are ignored, as the RFC says. Never fails otherwise; any bytes are
/// accepted.
std::optional<SetCookie> parse_set_cookie(std::string_view header);

/// An RFC 6265 section 5.1.1 cookie-date ("Sun, 06 Nov 1994 08:49:37 GMT", and the older forms the algorithm
/// tolerates: "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994") as seconds since the Unix epoch,
/// UTC. Nullopt when a part is missing or out of range (a day the month has not, a year before 1601).
std::optional<std::int64_t> parse_cookie_date(std::string_view text);

}  // namespace openloop::http
