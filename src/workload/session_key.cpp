// A record's session key and its hash (workload/session_key.h).
#include "workload/session_key.h"

#include <fmt/format.h>

#include "workload/trace_privacy.h"

namespace openloop::workload {
namespace {

bool is_token(std::string_view s) {
  if (s.empty()) return false;
  for (const char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
    if (!ok) return false;
  }
  return true;
}

// FNV-1a over the value, then SplitMix64's finalizer so that hash mod N spreads well for any N.
std::uint64_t hash_value(std::string_view v) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : v) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebULL;
  h ^= h >> 31;
  return h == 0 ? 1 : h;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The value of cookie `name` in a Cookie header ("a=1; sid=xyz"), or "" when it is not there.
std::string_view cookie_value(std::string_view header, std::string_view name) {
  while (!header.empty()) {
    const std::size_t end = header.find(';');
    const std::string_view pair = trim(header.substr(0, end));
    if (const std::size_t eq = pair.find('='); eq != std::string_view::npos && trim(pair.substr(0, eq)) == name)
      return trim(pair.substr(eq + 1));
    if (end == std::string_view::npos) break;
    header.remove_prefix(end + 1);
  }
  return {};
}

}  // namespace

std::string SessionKey::text() const {
  switch (kind) {
    case Kind::none: return "";
    case Kind::ip: return "ip";
    case Kind::header: return "header:" + name;
    case Kind::cookie: return "cookie:" + name;
    case Kind::field: return "field";
  }
  return "";
}

Result<SessionKey> parse_session_key(std::string_view text, std::string_view what) {
  SessionKey k;
  if (text == "ip") {
    k.kind = SessionKey::Kind::ip;
    return k;
  }
  if (text == "field") {
    k.kind = SessionKey::Kind::field;
    return k;
  }
  for (const auto& [prefix, kind] : {std::pair{std::string_view("header:"), SessionKey::Kind::header},
                                     std::pair{std::string_view("cookie:"), SessionKey::Kind::cookie}}) {
    if (text.starts_with(prefix) && is_token(text.substr(prefix.size()))) {
      k.kind = kind;
      k.name = std::string(text.substr(prefix.size()));
      return k;
    }
  }
  return usage_error(fmt::format(
      "{}: \"{}\" is not a session key; use ip (the log's client address), header:NAME, cookie:NAME or field "
      "(JSONL's \"session\", HAR's pageref)",
      what, text));
}

std::uint64_t session_hash(const SessionKey& key, const TraceRecord& r) {
  std::string_view value;
  switch (key.kind) {
    case SessionKey::Kind::none: return 0;
    case SessionKey::Kind::ip:
    case SessionKey::Kind::field: value = r.session; break;
    case SessionKey::Kind::header:
    case SessionKey::Kind::cookie: {
      const std::string_view name = key.kind == SessionKey::Kind::header ? std::string_view(key.name) : "Cookie";
      for (const http::Header& h : r.headers) {
        if (!iequals_ascii(h.name, name)) continue;
        value = key.kind == SessionKey::Kind::header ? std::string_view(h.value) : cookie_value(h.value, key.name);
        if (!value.empty()) break;
      }
      break;
    }
  }
  return value.empty() ? 0 : hash_value(value);
}

}  // namespace openloop::workload
