// Token issue and checks for the lab's auth flow; order ids.
#include "lab/auth_store.h"

#include <cctype>
#include <charconv>

#include <fmt/format.h>

#include "http/ascii_text.h"

namespace openloop::lab {
namespace {

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

}  // namespace

std::uint64_t AuthStore::mac(std::uint64_t n) const {
  return mix(mix(n ^ m_secret) + m_secret);
}

std::string AuthStore::issue_token() {
  const std::uint64_t n = ++m_tokens;
  ++m_counters.logins;
  return fmt::format("lab{}.{:016x}", n, mac(n));
}

bool AuthStore::valid_token(std::string_view token) const {
  if (!token.starts_with("lab")) return false;
  token.remove_prefix(3);
  const std::size_t dot = token.find('.');
  if (dot == std::string_view::npos || token.size() - dot - 1 != 16) return false;
  std::uint64_t n = 0;
  auto [end, ec] = std::from_chars(token.data(), token.data() + dot, n);
  if (ec != std::errc() || end != token.data() + dot || n < 1 || n > m_tokens) return false;
  std::uint64_t hash = 0;
  const char* hex = token.data() + dot + 1;
  auto [hex_end, hex_ec] = std::from_chars(hex, hex + 16, hash, 16);
  return hex_ec == std::errc() && hex_end == hex + 16 && hash == mac(n);
}

bool AuthStore::authorizes(std::string_view authorization, std::string_view cookie) const {
  // Authorization may be repeated (joined by ","): any Bearer credential this store issued will do.
  while (!authorization.empty()) {
    const std::size_t comma = authorization.find(',');
    const std::string_view one = http::trim_ows(authorization.substr(0, comma));
    if (one.size() > 7 && http::iequals(one.substr(0, 7), "bearer ") && valid_token(http::trim_ows(one.substr(7))))
      return true;
    authorization = comma == std::string_view::npos ? std::string_view() : authorization.substr(comma + 1);
  }
  while (!cookie.empty()) {
    const std::size_t semi = cookie.find(';');
    const std::string_view pair = http::trim_ows(cookie.substr(0, semi));
    const std::size_t eq = pair.find('=');
    if (eq != std::string_view::npos && pair.substr(0, eq) == k_session_cookie &&
        valid_token(http::trim_ows(pair.substr(eq + 1)))) {
      return true;
    }
    cookie = semi == std::string_view::npos ? std::string_view() : cookie.substr(semi + 1);
  }
  return false;
}

}  // namespace openloop::lab
