// One session's cookies (RFC 6265 section 5.3 storage, 5.4 sending), for the subset a load test meets:
// host-only and Domain cookies, Path, Expires and Max-Age, Secure, and a small built-in list of public
// suffixes. No SameSite, no HttpOnly (a load generator runs no scripts).
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
/// Whether `domain` (lower case, no leading '.') is a public suffix, under which anyone may register a name:
/// a name without a dot (every top-level domain: com, org, io, localhost...) or one of a built-in list of the
/// common second-level registries (co.uk, org.uk, com.au, co.jp, com.br, ...). Not the whole Public Suffix
/// List: a suffix it lacks (e.g. github.io) is treated as an ordinary domain.
bool public_suffix(std::string_view domain);
/// RFC 6265 5.1.4's default-path of a request target ("/a/b?x" → "/a"; "/x" and "" → "/"); a query or
/// fragment is not part of the path.
std::string_view default_path(std::string_view request_target);

/// A session's cookie jar. Holds at most `capacity` cookies: a new one beyond it evicts the one set longest
/// ago (what browsers do with their per-domain limit). Single-threaded. Allocation-free once each slot's
/// strings have held their longest values (clear() keeps them).
class CookieJar {
 public:
  static constexpr std::size_t k_default_capacity = 32;
  explicit CookieJar(std::size_t capacity = k_default_capacity) : m_capacity(capacity == 0 ? 1 : capacity) {
    m_sending.reserve(m_capacity);
  }

  /// What store() did.
  enum class Stored : std::uint8_t { added, replaced, removed, rejected };
  /// Stores `cookie`, received in the response to a request for `request_target` on `host` (lower case), at
  /// `now` (seconds since the Unix epoch, UTC). A cookie with the same name, domain and path replaces the
  /// earlier one (a host-only cookie and a Domain cookie of the same domain are the same cookie, RFC 6265 5.3
  /// step 11); one already expired (Max-Age ≤ 0, Expires ≤ now) removes it. Rejected: a Domain the host does
  /// not domain-match (a cookie for another site), and a Domain that is a public suffix (public_suffix())
  /// other than the host itself (5.3 step 5: a cookie for every site under it); a Domain equal to the host
  /// that is a public suffix makes a host-only cookie.
  Stored store(const SetCookie& cookie, std::string_view host, std::string_view request_target,
               std::int64_t now);

  /// Writes the Cookie header value for a request to `host` (lower case) and `request_target`, over TLS or
  /// not, at `now`, into `out` (cleared first; capacity reused): "a=1; b=2", cookies with longer paths first,
  /// then in the order they were first set (RFC 6265 5.4 step 2). Returns the number sent.
  std::size_t header(std::string_view host, std::string_view request_target, bool tls, std::int64_t now,
                     std::string& out);

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
  std::vector<std::size_t> m_sending;  // header(): the entries sent, in sending order (capacity reserved)
};

}  // namespace openloop::http
