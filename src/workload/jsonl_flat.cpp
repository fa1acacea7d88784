// A JSONL trace line read without a JSON document (workload/jsonl_flat.h).
#include "workload/jsonl_flat.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>

#include "core/start_at.h"
#include "workload/jsonl_trace.h"
#include "workload/trace_checks.h"

namespace openloop::workload {
namespace {

constexpr int k_max_depth = 32;

// A cursor over one line. Every reader returns false on anything it does not take, leaving the line to the
// full parser.
class Flat {
 public:
  explicit Flat(std::string_view s) : m_s(s) {}

  void space() {
    while (m_i < m_s.size() && (m_s[m_i] == ' ' || m_s[m_i] == '\t' || m_s[m_i] == '\r' || m_s[m_i] == '\n'))
      ++m_i;
  }
  bool at_end() {
    space();
    return m_i == m_s.size();
  }
  bool take(char c) {
    space();
    if (m_i == m_s.size() || m_s[m_i] != c) return false;
    ++m_i;
    return true;
  }
  char peek() {
    space();
    return m_i < m_s.size() ? m_s[m_i] : '\0';
  }

  // A string of ASCII text with its escapes decoded into `out` (\u escapes and bytes past ASCII refused).
  bool string(std::string& out) {
    out.clear();
    if (!take('"')) return false;
    while (m_i < m_s.size()) {
      const char c = m_s[m_i++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x80) return false;
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (m_i == m_s.size()) return false;
      switch (m_s[m_i++]) {
        case '"':
          out.push_back('"');
          break;
        case '\\':
          out.push_back('\\');
          break;
        case '/':
          out.push_back('/');
          break;
        case 'b':
          out.push_back('\b');
          break;
        case 'f':
          out.push_back('\f');
          break;
        case 'n':
          out.push_back('\n');
          break;
        case 'r':
          out.push_back('\r');
          break;
        case 't':
          out.push_back('\t');
          break;
        default:
          return false;  // \u, or not an escape
      }
    }
    return false;
  }

  // A number's text as JSON's grammar has it; `integer` when it has neither a fraction nor an exponent.
  bool number(std::string_view& text, bool& integer) {
    space();
    const std::size_t start = m_i;
    if (m_i < m_s.size() && m_s[m_i] == '-') ++m_i;
    if (m_i < m_s.size() && m_s[m_i] == '0') {
      ++m_i;
    } else if (!digits()) {
      return false;
    }
    integer = true;
    if (m_i < m_s.size() && m_s[m_i] == '.') {
      ++m_i;
      integer = false;
      if (!digits()) return false;
    }
    if (m_i < m_s.size() && (m_s[m_i] == 'e' || m_s[m_i] == 'E')) {
      ++m_i;
      integer = false;
      if (m_i < m_s.size() && (m_s[m_i] == '+' || m_s[m_i] == '-')) ++m_i;
      if (!digits()) return false;
    }
    text = m_s.substr(start, m_i - start);
    return true;
  }

  // Any value, read over (its strings into `scratch`).
  bool skip(std::string& scratch, int depth = 0) {
    if (depth > k_max_depth) return false;
    const char c = peek();
    if (c == '"') return string(scratch);
    if (c == '{' || c == '[') {
      const char close = c == '{' ? '}' : ']';
      take(c);
      if (take(close)) return true;
      do {
        if (c == '{' && !(string(scratch) && take(':'))) return false;
        if (!skip(scratch, depth + 1)) return false;
      } while (take(','));
      return take(close);
    }
    for (const std::string_view word :
         {std::string_view("true"), std::string_view("false"), std::string_view("null")}) {
      if (m_s.substr(m_i, word.size()) == word) {
        m_i += word.size();
        return true;
      }
    }
    std::string_view text;
    bool integer = false;
    return number(text, integer);
  }

 private:
  bool digits() {
    const std::size_t start = m_i;
    while (m_i < m_s.size() && m_s[m_i] >= '0' && m_s[m_i] <= '9') ++m_i;
    return m_i > start;
  }

  std::string_view m_s;
  std::size_t m_i = 0;
};

// An integer token that fits an int64 as nlohmann reads it (at most 18 digits, so never its unsigned or
// floating reading).
bool small_integer(std::string_view text, std::int64_t& v) {
  if (text.size() > 18) return false;
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  return ec == std::errc() && p == text.data() + text.size();
}

// "t": seconds (a finite number below 9e9) or an RFC 3339 string, as stamp_of() in jsonl_trace.cpp.
bool stamp(Flat& in, std::string& scratch, Nanos& t) {
  if (in.peek() == '"') {
    if (!in.string(scratch)) return false;
    const auto wall = parse_rfc3339(scratch, "\"t\"");
    if (!wall) return false;
    t = std::chrono::duration_cast<Nanos>(wall->time_since_epoch());
    return std::fabs(to_seconds(t)) <= 9e9;  // beyond: the full parser says why
  }
  std::string_view text;
  bool integer = false;
  if (!in.number(text, integer)) return false;
  double s = 0;
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), s);
  if (ec != std::errc() || p != text.data() + text.size() || !std::isfinite(s) || std::fabs(s) > 9e9)
    return false;
  t = Nanos(std::llround(s * 1e9));
  return true;
}

// "headers": an object of strings. nlohmann's object is a map: the full parser gives them sorted by name (a
// name twice: its last value), so they are sorted here too, and a name given twice is left to it.
bool headers(Flat& in, TraceRecord& out) {
  if (!in.take('{')) return false;
  if (in.take('}')) return true;
  do {
    http::Header& h = out.headers.emplace_back();
    if (!in.string(h.name) || !in.take(':') || in.peek() != '"' || !in.string(h.value) ||
        !check_trace_header(h))
      return false;
  } while (in.take(','));
  const auto by_name = [](const http::Header& a, const http::Header& b) { return a.name < b.name; };
  std::sort(out.headers.begin(), out.headers.end(), by_name);
  const auto same = [](const http::Header& a, const http::Header& b) { return a.name == b.name; };
  return std::adjacent_find(out.headers.begin(), out.headers.end(), same) == out.headers.end() &&
         in.take('}');
}

enum class Key : unsigned { t, url, method, headers, body, body_b64, session, status, response_bytes, other };

unsigned bit(Key k) {
  return 1U << static_cast<unsigned>(k);
}

Key key_of(std::string_view k) {
  constexpr std::string_view k_names[] = {"t",        "url",     "method", "headers",       "body",
                                          "body_b64", "session", "status", "response_bytes"};
  for (unsigned i = 0; i < std::size(k_names); ++i)
    if (k == k_names[i]) return static_cast<Key>(i);
  return Key::other;
}

}  // namespace

bool parse_jsonl_flat(std::string_view line, TraceRecord& out, std::string& scratch) {
  Flat in(line);
  unsigned seen = 0;
  if (!in.take('{')) return false;
  if (in.take('}')) return false;  // no "t": the full parser says so
  do {
    if (!in.string(scratch) || !in.take(':')) return false;
    const Key k = key_of(scratch);
    if (k != Key::other) {
      if ((seen & bit(k)) != 0) return false;  // a key twice: the full parser decides which counts
      seen |= bit(k);
    }
    std::string_view text;
    bool integer = false;
    std::int64_t v = 0;
    switch (k) {
      case Key::t:
        if (!stamp(in, scratch, out.t)) return false;
        break;
      case Key::url:
        if (in.peek() != '"' || !in.string(scratch) || !trace_target_into(scratch, out.target)) return false;
        break;
      case Key::method:
        if (in.peek() != '"' || !in.string(out.method) || !is_http_token(out.method)) return false;
        break;
      case Key::headers:
        if (!headers(in, out)) return false;
        break;
      case Key::body:
        if (in.peek() != '"' || !in.string(out.body)) return false;
        break;
      case Key::body_b64: {
        if (in.peek() != '"' || !in.string(scratch)) return false;
        auto decoded = decode_base64(scratch);
        if (!decoded) return false;
        out.body = std::move(*decoded);
        break;
      }
      case Key::session:
        if (in.peek() == '"') {
          if (!in.string(out.session)) return false;
        } else if (!in.number(text, integer) || !integer || !small_integer(text, v)) {
          return false;  // a fraction: nlohmann writes it back its own way
        } else {
          out.session = text == "-0" ? std::string_view("0") : text;  // nlohmann writes -0 back as 0
        }
        break;
      case Key::status:
      case Key::response_bytes: {
        const char c = in.peek();
        if (c != '-' && (c < '0' || c > '9')) {  // not a number: ignored, as the full parser ignores it
          if (!in.skip(scratch)) return false;
          break;
        }
        if (!in.number(text, integer)) return false;
        if (!integer) break;  // a fraction: ignored
        if (!small_integer(text, v)) return false;
        if (k == Key::status) {
          if (v < 100 || v > 999) return false;
          out.status = static_cast<int>(v);
        } else if (v >= 0) {
          out.response_bytes = v;
        }
        break;
      }
      case Key::other:
        if (!in.skip(scratch)) return false;
        break;
    }
  } while (in.take(','));
  if (!in.take('}') || !in.at_end()) return false;
  if ((seen & bit(Key::t)) == 0 || (seen & bit(Key::url)) == 0) return false;
  if ((seen & bit(Key::body)) != 0 && (seen & bit(Key::body_b64)) != 0) return false;
  if ((seen & bit(Key::method)) == 0) out.method = "GET";
  return true;
}

}  // namespace openloop::workload
