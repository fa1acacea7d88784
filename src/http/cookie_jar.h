// One session's cookies (RFC 6265 section 5.3 storage, 5.4 sending), for the subset a load test meets:
// host-only and Domain cookies, Path, Expires and Max-Age, Secure. No public-suffix list, no SameSite, no
// HttpOnly (a load generator runs no scripts).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "http/set_cookie.h"

namespace openloop::http {

/// RFC 6265 5.1.3: `host` (lower case) is `domain` (lower case), or ends with "." + domain and is not an IP
/// address literal.
bool domain_matches(std::string_view host, std::string_view domain);
/// RFC 6265 5.1.4: `request_path` is `cookie_path`, or begins with it and either it ends with '/' or the next
/// character of the request path is '/'.
bool path_matches(std::string_view request_path, std::string_view cookie_path);
/// RFC 6265 5.1.4's default-path of a request target ("/a/b?x" → "/a"; "/x" and "" → "/"); a query or
/// fragment is not part of the path.
std::string_view default_path(std::string_view request_target);

/// A session's cookie jar. Holds at most `capacity` cookies: a new one beyond it evicts the one set longest
/// ago (what browsers do with their per-domain limit). Single-threaded. Allocation-free once each slot's
/// strings have held their longest values (clear() keeps them).
class CookieJar {
 public:
  static constexpr std::size_t k_default_capacity = 32;
  explicit CookieJar(std::size_t capacity = k_default_capacity) : m_capacity(capacity == 0 ? 1 : capacity) {}

  /// What store() did.
  enum class Stored : std::uint8_t { added, replaced, removed, rejected };
  /// Stores `cookie`, received in the response to a request for `request_target` on `host` (lower case), at
  /// `now` (seconds since the Unix epoch, UTC). A cookie with the same name, domain and path replaces the
  /// earlier one; one already expired (Max-Age ≤ 0, Expires ≤ now) removes it. Rejected: a Domain the host
  /// does not domain-match (a cookie for another site).
  Stored store(const SetCookie& cookie, std::string_view host, std::string_view request_target,
               std::int64_t now);

  /// Writes the Cookie header value for a request to `host` (lower case) and `request_target`, over TLS or
  /// not, at `now`, into `out` (cleared first; capacity reused): "a=1; b=2", in the order the cookies were
  /// first set (RFC 6265 orders longer paths first; servers do not depend on it). Returns the number sent.
  std::size_t header(std::string_view host, std::string_view request_target, bool tls, std::int64_t now,
                     std::string& out) const;

  /// Forgets every cookie (a new session).
  void clear() { m_count = 0; }
  /// Cookies held (some may have expired since they were stored).
  std::size_t size() const { return m_count; }

 private:
  struct Entry {
    std::string name, value, domain, path;
    std::int64_t expires = INT64_MAX;  // seconds since the epoch; INT64_MAX: a session cookie
    bool host_only = true;
    bool secure = false;
  };
  void remove(std::size_t i);

  std::vector<Entry> m_entries;  // the first m_count are live, in the order first set; the rest keep capacity
  std::size_t m_count = 0;
  std::size_t m_capacity;
  std::string m_domain;  // a Domain attribute, lower case
};

}  // namespace openloop::http
