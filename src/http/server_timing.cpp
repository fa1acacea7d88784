// Server-Timing grammar (W3C Server Timing, RFC 9110 tokens and quoted strings), allocation-free.
#include "http/server_timing.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace openloop::http {
namespace {

bool is_tchar(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  switch (c) {
    case '!': case '#': case '$': case '%': case '&': case '\'': case '*': case '+': case '-': case '.':
    case '^': case '_': case '`': case '|': case '~':
      return true;
    default:
      return false;
  }
}

bool equal_nocase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

// A cursor over the value; every read stops at its end.
struct Cursor {
  std::string_view s;
  std::size_t i = 0;
  bool done() const { return i >= s.size(); }
  char peek() const { return s[i]; }
  void skip_ows() {
    while (!done() && (s[i] == ' ' || s[i] == '\t')) ++i;
  }
  std::string_view token() {
    const std::size_t b = i;
    while (!done() && is_tchar(s[i])) ++i;
    return s.substr(b, i - b);
  }
  // A quoted-string (backslash escapes allowed); false when unterminated.
  bool quoted() {
    ++i;  // the opening quote
    while (!done()) {
      const char c = s[i++];
      if (c == '\\') {
        if (done()) return false;
        ++i;
      } else if (c == '"') {
        return true;
      }
    }
    return false;
  }
};

// dur's value: a non-negative decimal number of milliseconds.
bool parse_ms(std::string_view text, double& ms) {
  if (text.empty()) return false;
  for (const char c : text)
    if (!((c >= '0' && c <= '9') || c == '.')) return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), ms);
  return ec == std::errc() && end == text.data() + text.size() && std::isfinite(ms) && ms >= 0;
}

// A cache metric's desc (any case): what it says about the cache.
ServerTimingValue::Cache cache_said(std::string_view desc) {
  using Cache = ServerTimingValue::Cache;
  for (const std::string_view hit : {"hit", "stale"})
    if (equal_nocase(desc, hit)) return Cache::hit;
  for (const std::string_view miss : {"miss", "expired", "bypass"})
    if (equal_nocase(desc, miss)) return Cache::miss;
  for (const std::string_view off : {"off", "none"})
    if (equal_nocase(desc, off)) return Cache::off;
  return Cache::unsaid;
}

}  // namespace

ServerTimingValue parse_server_timing(std::string_view value, std::string_view metric) {
  using Status = ServerTimingValue::Status;
  constexpr ServerTimingValue k_malformed{Status::malformed, Nanos(0)};
  Cursor c{value};
  double total_ms = 0;
  bool found = false;
  ServerTimingValue::Cache cache = ServerTimingValue::Cache::unsaid;
  c.skip_ows();
  if (c.done()) return k_malformed;  // an empty header says nothing
  while (true) {
    c.skip_ows();
    const std::string_view name = c.token();
    if (name.empty()) return k_malformed;
    const bool selected = metric.empty() || (!found && equal_nocase(name, metric));
    const bool cache_metric = cache == ServerTimingValue::Cache::unsaid &&
                              (equal_nocase(name, "cache") || equal_nocase(name, "cdn-cache"));
    bool has_dur = false;
    double dur_ms = 0;
    c.skip_ows();
    while (!c.done() && c.peek() == ';') {
      ++c.i;
      c.skip_ows();
      const std::string_view param = c.token();
      if (param.empty()) return k_malformed;
      c.skip_ows();
      std::string_view param_value;
      bool quoted = false;
      if (!c.done() && c.peek() == '=') {
        ++c.i;
        c.skip_ows();
        if (!c.done() && c.peek() == '"') {
          const std::size_t b = c.i + 1;
          if (!c.quoted()) return k_malformed;
          param_value = value.substr(b, c.i - 1 - b);
          quoted = true;
        } else {
          param_value = c.token();
          if (param_value.empty()) return k_malformed;
        }
        c.skip_ows();
      }
      if (equal_nocase(param, "dur") && !has_dur) {  // the first dur of a metric counts (as browsers read it)
        if (quoted && param_value.find('\\') != std::string_view::npos) return k_malformed;
        if (!parse_ms(param_value, dur_ms)) return k_malformed;
        has_dur = true;
      } else if (cache_metric && equal_nocase(param, "desc") && cache == ServerTimingValue::Cache::unsaid) {
        cache = cache_said(param_value);
      }
    }
    if (selected && has_dur) {
      total_ms += dur_ms;
      found = true;
    }
    if (c.done()) break;
    if (c.peek() != ',') return k_malformed;
    ++c.i;
  }
  if (!found) return {Status::no_duration, Nanos(0), cache};
  // Clamped to a day: a larger value is nonsense and would overflow nanoseconds.
  const double ns = std::min(total_ms, 86'400'000.0) * 1e6;
  return {Status::valid, Nanos(static_cast<std::int64_t>(std::llround(ns))), cache};
}

}  // namespace openloop::http
