// JSON path parsing and the bounded scanner over a response body.
#include "workload/json_path.h"

#include <cctype>

#include <fmt/format.h>

namespace openloop::workload {
namespace {

constexpr std::string_view k_forms =
    "use $.a.b, $.items[0].id, $['odd key'] or an RFC 6901 pointer such as /data/token";

tl::unexpected<Error> path_error(std::string_view what, std::string_view text, std::size_t at,
                                 std::string_view problem) {
  return usage_error(
      fmt::format("{}: JSON path \"{}\", column {}: {}; {}", what, text, at + 1, problem, k_forms));
}

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-';
}

Result<std::vector<JsonPath::Segment>> parse_pointer(std::string_view text, std::string_view what) {
  std::vector<JsonPath::Segment> out;
  std::size_t i = 0;
  while (i < text.size()) {
    ++i;  // the '/'
    JsonPath::Segment s;
    while (i < text.size() && text[i] != '/') {
      if (text[i] == '~') {
        if (i + 1 >= text.size() || (text[i + 1] != '0' && text[i + 1] != '1'))
          return path_error(what, text, i, "~ must be followed by 0 (for ~) or 1 (for /)");
        s.key += text[i + 1] == '0' ? '~' : '/';
        i += 2;
        continue;
      }
      s.key += text[i++];
    }
    const bool digits = !s.key.empty() && s.key.size() <= 15 && (s.key == "0" || s.key.front() != '0') &&
                        s.key.find_first_not_of("0123456789") == std::string::npos;
    if (digits) s.index = std::stoll(s.key);
    out.push_back(std::move(s));
  }
  return out;
}

Result<std::vector<JsonPath::Segment>> parse_dollar(std::string_view text, std::string_view what) {
  std::vector<JsonPath::Segment> out;
  std::size_t i = 1;
  while (i < text.size()) {
    JsonPath::Segment s;
    if (text[i] == '.') {
      const std::size_t begin = ++i;
      while (i < text.size() && name_char(text[i])) ++i;
      if (i == begin) return path_error(what, text, begin, "a member name is expected after '.'");
      s.key = std::string(text.substr(begin, i - begin));
    } else if (text[i] == '[' && i + 1 < text.size() && (text[i + 1] == '\'' || text[i + 1] == '"')) {
      const char quote = text[i + 1];
      i += 2;
      bool closed = false;
      while (i < text.size()) {
        if (text[i] == '\\' && i + 1 < text.size()) {
          s.key += text[i + 1];
          i += 2;
        } else if (text[i] == quote) {
          closed = true;
          ++i;
          break;
        } else {
          s.key += text[i++];
        }
      }
      if (!closed || i >= text.size() || text[i] != ']')
        return path_error(what, text, i, fmt::format("the quoted name needs a closing {}]", quote));
      ++i;
    } else if (text[i] == '[') {
      const std::size_t begin = ++i;
      while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0) ++i;
      if (i == begin || i - begin > 15 || i >= text.size() || text[i] != ']')
        return path_error(what, text, begin, "an index is a whole number in brackets, e.g. [0]");
      s.index = std::stoll(std::string(text.substr(begin, i - begin)));
      s.member = false;
      ++i;
    } else {
      return path_error(what, text, i, fmt::format("'{}' is not '.', '[N]' or '[\\'name\\']'", text[i]));
    }
    out.push_back(std::move(s));
  }
  return out;
}

// The scanner: a cursor over the document that skips whitespace and whole values, depth-bounded.
struct Scanner {
  std::string_view s;
  std::size_t i = 0;

  void ws() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
  }
  bool eat(char c) {
    ws();
    if (i < s.size() && s[i] == c) {
      ++i;
      return true;
    }
    return false;
  }
  // At a '"': the content up to the closing quote (escapes kept), the cursor after it.
  std::optional<std::string_view> string() {
    if (i >= s.size() || s[i] != '"') return std::nullopt;
    const std::size_t begin = ++i;
    while (i < s.size() && s[i] != '"') i += s[i] == '\\' ? 2 : 1;
    if (i >= s.size()) return std::nullopt;
    return s.substr(begin, i++ - begin);
  }
  // Skips one value; its raw text and kind. Containers are skipped by counting brackets outside strings.
  std::optional<JsonValue> value() {
    ws();
    if (i >= s.size()) return std::nullopt;
    const std::size_t begin = i;
    const char c = s[i];
    if (c == '"') {
      auto str = string();
      if (!str) return std::nullopt;
      return JsonValue{*str, JsonKind::string};
    }
    if (c == '{' || c == '[') {
      std::size_t depth = 0;
      while (i < s.size()) {
        const char d = s[i];
        if (d == '"') {
          if (!string()) return std::nullopt;
          continue;
        }
        if (d == '{' || d == '[') {
          if (++depth > k_json_max_depth) return std::nullopt;
        } else if (d == '}' || d == ']') {
          if (--depth == 0) {
            ++i;
            return JsonValue{s.substr(begin, i - begin), c == '{' ? JsonKind::object : JsonKind::array};
          }
        }
        ++i;
      }
      return std::nullopt;
    }
    while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ']' && s[i] != ' ' && s[i] != '\n' &&
           s[i] != '\r' && s[i] != '\t')
      ++i;
    const std::string_view raw = s.substr(begin, i - begin);
    if (raw.empty()) return std::nullopt;
    if (raw == "true" || raw == "false") return JsonValue{raw, JsonKind::boolean};
    if (raw == "null") return JsonValue{raw, JsonKind::null};
    if (c == '-' || std::isdigit(static_cast<unsigned char>(c)) != 0) return JsonValue{raw, JsonKind::number};
    return std::nullopt;
  }
  // In an object (after '{'): moves to the value of member `key`; false when absent or malformed.
  bool member(std::string_view key) {
    if (eat('}')) return false;
    for (;;) {
      ws();
      auto name = string();
      if (!name || !eat(':')) return false;
      if (*name == key) {
        ws();
        return true;
      }
      if (!value()) return false;
      if (eat(',')) continue;
      return false;  // '}' or malformed: not found
    }
  }
  // In an array (after '['): moves to element `index`.
  bool element(std::int64_t index) {
    if (eat(']')) return false;
    for (std::int64_t k = 0;; ++k) {
      ws();
      if (k == index) return true;
      if (!value()) return false;
      if (!eat(',')) return false;
    }
  }
};

void append_utf8(std::uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

std::optional<std::uint32_t> hex4(std::string_view s, std::size_t at) {
  if (at + 4 > s.size()) return std::nullopt;
  std::uint32_t v = 0;
  for (std::size_t k = at; k < at + 4; ++k) {
    const char c = s[k];
    v <<= 4;
    if (c >= '0' && c <= '9')
      v |= static_cast<std::uint32_t>(c - '0');
    else if (c >= 'a' && c <= 'f')
      v |= static_cast<std::uint32_t>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F')
      v |= static_cast<std::uint32_t>(c - 'A' + 10);
    else
      return std::nullopt;
  }
  return v;
}

}  // namespace

Result<JsonPath> JsonPath::parse(std::string_view text, std::string_view what) {
  JsonPath p;
  p.m_text = std::string(text);
  if (text.empty() || text.front() == '/') {
    p.m_segments = OPENLOOP_TRY(parse_pointer(text, what));
  } else if (text.front() == '$') {
    p.m_segments = OPENLOOP_TRY(parse_dollar(text, what));
  } else {
    return path_error(what, text, 0, "a path starts with $ or /");
  }
  return p;
}

std::optional<JsonValue> json_find(std::string_view json, const JsonPath& path) {
  Scanner sc{json};
  for (const JsonPath::Segment& seg : path.segments()) {
    sc.ws();
    if (sc.i >= json.size()) return std::nullopt;
    const char c = json[sc.i];
    if (c == '{' && seg.member) {
      ++sc.i;
      if (!sc.member(seg.key)) return std::nullopt;
    } else if (c == '[' && seg.index >= 0) {
      ++sc.i;
      if (!sc.element(seg.index)) return std::nullopt;
    } else {
      return std::nullopt;
    }
  }
  return sc.value();
}

bool json_text(const JsonValue& value, std::string& out) {
  out.clear();
  const std::string_view s = value.raw;
  if (value.kind != JsonKind::string) {
    out.assign(s);
    return true;
  }
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\') {
      out += s[i];
      continue;
    }
    if (++i >= s.size()) return false;
    switch (s[i]) {
      case '"':
        out += '"';
        break;
      case '\\':
        out += '\\';
        break;
      case '/':
        out += '/';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        auto cp = hex4(s, i + 1);
        if (!cp) return false;
        i += 4;
        if (*cp >= 0xD800 && *cp < 0xDC00 && i + 2 < s.size() && s[i + 1] == '\\' && s[i + 2] == 'u') {
          auto low = hex4(s, i + 3);
          if (low && *low >= 0xDC00 && *low < 0xE000) {
            *cp = 0x10000 + ((*cp - 0xD800) << 10) + (*low - 0xDC00);
            i += 6;
          }
        }
        append_utf8(*cp, out);
        break;
      }
      default:
        return false;
    }
  }
  return true;
}

}  // namespace openloop::workload
