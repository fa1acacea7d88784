// The lab's auth flow (--auth): tokens it issues at POST /_lab/login and the orders of POST /_lab/orders.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace openloop::lab {

/// What the auth flow counts (GET /_lab/stats "auth"). Single-threaded (the server's loop thread).
struct AuthCounters {
  std::uint64_t logins = 0;          ///< tokens issued by POST /_lab/login
  std::uint64_t authorized = 0;      ///< requests that needed a token (--auth) and carried one it issued
  std::uint64_t unauthorized = 0;    ///< requests that needed one and did not: answered 401
  std::uint64_t orders_created = 0;  ///< POST /_lab/orders answered with a new id
  std::uint64_t orders_found = 0;    ///< GET /_lab/orders/N for an id it issued: 200
  std::uint64_t orders_missing = 0;  ///< GET /_lab/orders/N for any other N: 404
};

/// Issues tokens and order ids and recognises them. Memory is constant whatever the number issued: a token is
/// "lab<N>.<16 hex digits>", the digits a keyed hash of N, so checking one needs only N ≤ issued and the
/// hash; order ids are 1, 2, 3, ... Not thread-safe: the server's loop thread.
class AuthStore {
 public:
  /// `secret` keys the tokens' hash (the server draws one at start, so tokens of another run are refused).
  explicit AuthStore(std::uint64_t secret) : m_secret(secret) {}

  /// A fresh token (allocates: control plane only).
  std::string issue_token();
  /// Whether `token` is one this store issued.
  bool valid_token(std::string_view token) const;
  /// Whether the request's Authorization ("Bearer TOKEN", scheme case-insensitive) or its Cookie header
  /// (`lab_session=TOKEN` among its pairs) carries a token this store issued.
  bool authorizes(std::string_view authorization, std::string_view cookie) const;

  /// A new order id (1, 2, ...).
  std::uint64_t create_order() { return ++m_orders; }
  /// Whether `id` is one create_order returned.
  bool order_exists(std::uint64_t id) const { return id >= 1 && id <= m_orders; }

  AuthCounters& counters() { return m_counters; }
  const AuthCounters& counters() const { return m_counters; }

 private:
  std::uint64_t mac(std::uint64_t n) const;

  std::uint64_t m_secret;
  std::uint64_t m_tokens = 0;
  std::uint64_t m_orders = 0;
  AuthCounters m_counters;
};

/// The cookie that carries a token (Set-Cookie on login, read back by AuthStore::authorizes).
inline constexpr std::string_view k_session_cookie = "lab_session";

}  // namespace openloop::lab
