// HAR documents cut into entries and read as requests (workload/har_trace.h).
#include "workload/har_trace.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/start_at.h"
#include "workload/jsonl_trace.h"
#include "workload/trace_checks.h"

namespace openloop::workload {
namespace {

using nlohmann::json;

bool space(int c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

std::string shown(int c) {
  return c < 0 ? std::string("the end of the file") : fmt::format("'{}'", static_cast<char>(c));
}

}  // namespace

HarSplitter::HarSplitter(std::string name, std::unique_ptr<std::istream> in)
    : m_name(std::move(name)), m_in(std::move(in)) {}

int HarSplitter::peek() {
  if (m_pos == m_len) {
    if (!m_in->good()) return -1;
    m_in->read(m_buffer.data(), static_cast<std::streamsize>(m_buffer.size()));
    m_len = static_cast<std::size_t>(m_in->gcount());
    m_pos = 0;
    if (m_len == 0) return -1;
  }
  return static_cast<unsigned char>(m_buffer[m_pos]);
}

int HarSplitter::get() {
  const int c = peek();
  if (c < 0) return c;
  ++m_pos;
  if (c == '\n') ++m_line;
  return c;
}

int HarSplitter::skip_space() {
  while (space(peek())) get();
  return peek();
}

Result<void> HarSplitter::not_har(std::string_view why) const {
  return usage_error(
      fmt::format("{}:{}: not a HAR document: {}; a HAR 1.2 file is one JSON object holding its "
                  "requests in \"log\": {{\"entries\": [...]}}",
                  m_name, m_line, why));
}

Result<void> HarSplitter::expect(char c, std::string_view where) {
  const int got = skip_space();
  if (got != c) return not_har(fmt::format("expected '{}' {}, found {}", c, where, shown(got)));
  get();
  return {};
}

// A string's text after its opening quote, to its closing one (escapes kept as written; the first 256 bytes).
Result<std::string> HarSplitter::read_key() {
  OPENLOOP_TRY_VOID(expect('"', "to open a member's name"));
  std::string key;
  for (;;) {
    const int c = get();
    if (c < 0) return tl::unexpected(not_har("the file ends inside a member's name").error());
    if (c == '"') break;
    if (c == '\\') {
      const int e = get();
      if (e < 0) continue;
      if (key.size() < 256) key.push_back('\\');
      if (key.size() < 256) key.push_back(static_cast<char>(e));
      continue;
    }
    if (key.size() < 256) key.push_back(static_cast<char>(c));
  }
  OPENLOOP_TRY_VOID(expect(':', fmt::format("after \"{}\"", key)));
  return key;
}

// Reads over one JSON value (nesting counted, strings' brackets ignored); its syntax is not checked further.
Result<void> HarSplitter::skip_value() {
  int c = skip_space();
  if (c < 0) return not_har("the file ends where a value was expected");
  std::uint64_t depth = 0;
  bool string = false;
  do {
    c = get();
    if (c < 0) return not_har("the file ends inside a value");
    if (string) {
      if (c == '\\') {
        get();
      } else if (c == '"') {
        string = false;
      }
    } else if (c == '"') {
      string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (depth == 0) return not_har(fmt::format("an unexpected '{}'", static_cast<char>(c)));
      --depth;
    } else if (depth == 0) {
      // A scalar: it runs to the next separator.
      while (peek() >= 0 && !space(peek()) && peek() != ',' && peek() != '}' && peek() != ']') get();
    }
  } while (depth > 0 || string);
  return {};
}

// From the document's start to just inside log.entries' '['.
Result<void> HarSplitter::find_entries() {
  if (peek() == 0xEF) {  // a UTF-8 byte order mark
    get();
    get();
    get();
  }
  OPENLOOP_TRY_VOID(expect('{', "at the start"));
  bool in_log = false;
  for (;;) {
    int c = skip_space();
    if (c == '}') {
      if (!in_log) return not_har("it has no \"log\" member");
      return not_har("its \"log\" has no \"entries\" member");
    }
    const std::string key = OPENLOOP_TRY(read_key());
    if (!in_log && key == "log") {
      OPENLOOP_TRY_VOID(expect('{', "as \"log\"'s value"));
      in_log = true;
      continue;
    }
    if (in_log && key == "entries") {
      OPENLOOP_TRY_VOID(expect('[', "as \"entries\"' value"));
      return {};
    }
    OPENLOOP_TRY_VOID(skip_value());
    c = skip_space();
    if (c == ',') {
      get();
    } else if (c != '}') {
      return not_har(fmt::format("expected ',' or '}}' after \"{}\"'s value, found {}", key, shown(c)));
    }
  }
}

Result<bool> HarSplitter::next(TraceUnit& out) {
  out.text.clear();
  out.too_long = false;
  if (m_done) return false;
  if (!m_in_entries) {
    OPENLOOP_TRY_VOID(find_entries());
    m_in_entries = true;
  } else {
    const int c = skip_space();
    if (c == ',') {
      get();
    } else if (c == ']') {
      m_done = true;
      return false;
    } else {
      return tl::unexpected(
          not_har(fmt::format("expected ',' or ']' after entry {}, found {}", m_entries, shown(c))).error());
    }
  }
  int c = skip_space();
  if (c == ']' && m_entries == 0) {
    m_done = true;
    return false;
  }
  if (c < 0) return tl::unexpected(not_har("the file ends inside log.entries (a truncated file?)").error());
  out.line = m_line;
  out.number = ++m_entries;
  // The entry's text, to its closing brace: nesting counted outside strings.
  std::uint64_t depth = 0;
  bool string = false;
  do {
    c = get();
    if (c < 0) {  // the file ends inside the entry: the cut text is a bad unit, then the end
      m_done = true;
      if (m_in->bad()) return runtime_error(fmt::format("{}: read failed at line {}", m_name, m_line));
      return true;
    }
    if (out.text.size() < k_max_har_entry) {
      out.text.push_back(static_cast<char>(c));
    } else {
      out.too_long = true;
    }
    if (string) {
      if (c == '\\') {
        const int e = get();
        if (e >= 0 && out.text.size() < k_max_har_entry) out.text.push_back(static_cast<char>(e));
      } else if (c == '"') {
        string = false;
      }
    } else if (c == '"') {
      string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (depth > 0) --depth;
    } else if (depth == 0) {
      // Not an object: the scalar to its separator, then the parser refuses it.
      while (peek() >= 0 && !space(peek()) && peek() != ',' && peek() != ']')
        out.text.push_back(static_cast<char>(get()));
      break;
    }
  } while (depth > 0 || string);
  return true;
}

Result<void> HarSplitter::rewind() {
  m_in->clear();
  m_in->seekg(0);
  if (!m_in->good())
    return runtime_error(fmt::format("{}: cannot read the trace again from its start", m_name));
  m_pos = m_len = 0;
  m_line = 1;
  m_entries = 0;
  m_in_entries = false;
  m_done = false;
  return {};
}

namespace {

Result<void> read_request_headers(const json& headers, TraceRecord& out) {
  if (!headers.is_array())
    return usage_error("request.headers: expected an array of {\"name\": ..., \"value\": ...}");
  for (const auto& h : headers) {
    const auto name = h.find("name");
    const auto value = h.find("value");
    if (!h.is_object() || name == h.end() || value == h.end() || !name->is_string() || !value->is_string())
      return usage_error("request.headers: each header is an object {\"name\": \"...\", \"value\": \"...\"}");
    const auto& n = name->get_ref<const std::string&>();
    if (!n.empty() && n.front() == ':') continue;  // HTTP/2's pseudo-headers: the request line's parts
    http::Header header{n, value->get<std::string>()};
    OPENLOOP_TRY_VOID(check_trace_header(header));
    out.headers.push_back(std::move(header));
  }
  return {};
}

Result<void> read_post_data(const json& post, TraceRecord& out) {
  if (!post.is_object()) return usage_error("request.postData: expected an object");
  const auto text = post.find("text");
  if (text == post.end()) return {};
  if (!text->is_string()) return usage_error("request.postData.text: expected a string");
  const auto encoding = post.find("encoding");
  if (encoding != post.end() && encoding->is_string() &&
      encoding->get_ref<const std::string&>() == "base64") {
    out.body = OPENLOOP_TRY(decode_base64(text->get_ref<const std::string&>()));
  } else {
    out.body = text->get<std::string>();
  }
  return {};
}

void read_response(const json& response, TraceRecord& out) {
  if (!response.is_object()) return;
  if (const auto s = response.find("status"); s != response.end() && s->is_number_integer()) {
    const auto v = s->get<std::int64_t>();
    if (v > 0 && v < 1000) out.status = static_cast<int>(v);
  }
  std::int64_t size = -1;
  if (const auto c = response.find("content"); c != response.end() && c->is_object()) {
    if (const auto n = c->find("size"); n != c->end() && n->is_number_integer())
      size = n->get<std::int64_t>();
  }
  if (size < 0) {
    if (const auto n = response.find("bodySize"); n != response.end() && n->is_number_integer())
      size = n->get<std::int64_t>();
  }
  out.response_bytes = size < 0 ? -1 : size;
}

}  // namespace

Result<ParsedUnit> HarEntryParser::parse(std::string_view entry, TraceRecord& out) {
  const json j = json::parse(entry, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object())
    return usage_error(
        "not a JSON object (a truncated file?); expected an entry {\"startedDateTime\": ..., "
        "\"request\": {...}}");
  const auto started = j.find("startedDateTime");
  if (started == j.end() || !started->is_string())
    return usage_error("no \"startedDateTime\" string: each entry needs its start (RFC 3339)");
  const auto wall = parse_rfc3339(started->get_ref<const std::string&>(), "startedDateTime");
  if (!wall) return tl::unexpected(wall.error());
  out.t = std::chrono::duration_cast<Nanos>(wall->time_since_epoch());
  const auto request = j.find("request");
  if (request == j.end() || !request->is_object()) return usage_error("no \"request\" object");
  const auto method = request->find("method");
  if (method == request->end() || !method->is_string() ||
      !is_http_token(method->get_ref<const std::string&>()))
    return usage_error("request.method: expected an HTTP method (a token, e.g. \"GET\")");
  out.method = method->get<std::string>();
  const auto url = request->find("url");
  if (url == request->end() || !url->is_string()) return usage_error("no request.url string");
  out.target = OPENLOOP_TRY(trace_target(url->get_ref<const std::string&>()));
  if (const auto h = request->find("headers"); h != request->end())
    OPENLOOP_TRY_VOID(read_request_headers(*h, out));
  if (const auto p = request->find("postData"); p != request->end())
    OPENLOOP_TRY_VOID(read_post_data(*p, out));
  if (const auto page = j.find("pageref"); page != j.end() && page->is_string())
    out.session = page->get<std::string>();
  if (const auto r = j.find("response"); r != j.end()) read_response(*r, out);
  return ParsedUnit::record;
}

bool looks_like_har(std::string_view head) {
  if (head.substr(0, 3) == "\xEF\xBB\xBF") head.remove_prefix(3);
  std::size_t i = head.find_first_not_of(" \t\r\n");
  if (i == std::string_view::npos || head[i] != '{') return false;
  i = head.find_first_not_of(" \t\r\n", i + 1);
  return i != std::string_view::npos && head.substr(i, 5) == "\"log\"";
}

}  // namespace openloop::workload
