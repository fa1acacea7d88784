// JMeter's XML JTL read as records by an incremental tag scanner.
#include "audit/jmeter_xml_reader.h"

#include <cstdlib>
#include <optional>

#include <fmt/format.h>

#include "audit/fields.h"

namespace openloop::audit {
namespace {

constexpr std::size_t k_max_tag = 1 << 20;

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// The tag's name: up to white space, '/' or the end.
std::string_view tag_name(std::string_view tag) {
  std::size_t n = 0;
  while (n < tag.size() && !is_space(tag[n]) && tag[n] != '/') ++n;
  return tag.substr(0, n);
}

// Appends the UTF-8 encoding of `code`.
void append_utf8(std::string& out, unsigned long code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x110000) {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += "\xEF\xBF\xBD";
  }
}

// `raw` with XML's five named entities and numeric references decoded; anything else kept as written.
void decode_entities(std::string_view raw, std::string& out) {
  out.clear();
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '&') {
      out += raw[i];
      continue;
    }
    const std::size_t semi = raw.find(';', i);
    if (semi == std::string_view::npos || semi - i > 10) {
      out += raw[i];
      continue;
    }
    const std::string_view entity = raw.substr(i + 1, semi - i - 1);
    if (entity == "amp") {
      out += '&';
    } else if (entity == "lt") {
      out += '<';
    } else if (entity == "gt") {
      out += '>';
    } else if (entity == "quot") {
      out += '"';
    } else if (entity == "apos") {
      out += '\'';
    } else if (entity.size() > 1 && entity[0] == '#') {
      const bool hex = entity[1] == 'x' || entity[1] == 'X';
      const std::string digits(entity.substr(hex ? 2 : 1));
      char* end = nullptr;
      const unsigned long code = std::strtoul(digits.c_str(), &end, hex ? 16 : 10);
      if (digits.empty() || *end != '\0') {
        out += raw[i];
        continue;
      }
      append_utf8(out, code);
    } else {
      out += raw[i];
      continue;
    }
    i = semi;
  }
}

}  // namespace

bool xml_attribute(std::string_view tag, std::string_view name, std::string& value) {
  std::size_t i = tag_name(tag).size();
  while (i < tag.size()) {
    while (i < tag.size() && (is_space(tag[i]) || tag[i] == '/')) ++i;
    const std::size_t name_start = i;
    while (i < tag.size() && tag[i] != '=' && !is_space(tag[i])) ++i;
    const std::string_view attribute = tag.substr(name_start, i - name_start);
    while (i < tag.size() && is_space(tag[i])) ++i;
    if (i >= tag.size() || tag[i] != '=') {
      if (attribute.empty()) return false;
      continue;  // an attribute without a value: not XML, skipped
    }
    ++i;
    while (i < tag.size() && is_space(tag[i])) ++i;
    if (i >= tag.size() || (tag[i] != '"' && tag[i] != '\'')) return false;
    const char quote = tag[i++];
    const std::size_t close = tag.find(quote, i);
    if (close == std::string_view::npos) return false;
    if (attribute == name) {
      decode_entities(tag.substr(i, close - i), value);
      return true;
    }
    i = close + 1;
  }
  return false;
}

Result<std::unique_ptr<RecordReader>> JmeterXmlReader::open(const std::string& path) {
  std::unique_ptr<JmeterXmlReader> r(new JmeterXmlReader());
  r->m_path = path;
  r->m_in.open(path, std::ios::binary);
  if (!r->m_in) return usage_error(fmt::format("{}: cannot be read (no such file, or no permission)", path));
  // JMeter writes one thread per sample (tn) and stamps in milliseconds; samples are written as they end.
  r->m_traits = ReaderTraits{"JMeter", true, Nanos(1'000'000), false, ToolModel::closed};
  // The first element must be <testResults> (after the XML declaration and comments).
  char c = 0;
  while (r->get(c)) {
    // White space, and a UTF-8 byte-order mark's bytes, before the first tag.
    if (is_space(c) || c == '\xEF' || c == '\xBB' || c == '\xBF') continue;
    if (c != '<' || !r->read_tag()) break;
    if (r->m_tag.front() == '?' || r->m_tag.front() == '!') continue;
    if (tag_name(r->m_tag) == "testResults") {
      r->m_depth = 1;
      return std::unique_ptr<RecordReader>(std::move(r));
    }
    break;
  }
  return usage_error(fmt::format(
      "{}:{}: expected a JMeter XML JTL: an XML declaration, then <testResults> holding <httpSample> and "
      "<sample> elements (jmeter.save.saveservice.output_format=xml)",
      path, r->m_tag_line));
}

bool JmeterXmlReader::get(char& c) {
  if (m_at == m_size) {
    m_in.read(m_buffer.data(), static_cast<std::streamsize>(m_buffer.size()));
    m_size = static_cast<std::size_t>(m_in.gcount());
    m_at = 0;
    if (m_size == 0) return false;
  }
  c = m_buffer[m_at++];
  if (c == '\n') ++m_line;
  return true;
}

bool JmeterXmlReader::skip_until(std::string_view end) {
  // The last end.size() bytes read, compared after each byte (ends are 3 bytes: no partial-match table).
  std::string last(end.size(), '\0');
  char c = 0;
  while (get(c)) {
    last.erase(0, 1);
    last += c;
    if (last == end) return true;
  }
  return false;
}

bool JmeterXmlReader::read_tag() {
  m_tag.clear();
  m_tag_too_long = false;
  m_tag_last = 0;
  m_tag_line = m_line;
  char c = 0;
  char quote = 0;
  while (get(c)) {
    if (m_tag.empty() && c == '!') {
      // A comment or CDATA section: skipped whole, whatever it holds.
      char d = 0;
      if (!get(d)) return false;
      if (d == '-') {
        m_tag = "!--";
        return skip_until("-->");
      }
      if (d == '[') {
        m_tag = "![";
        return skip_until("]]>");
      }
      m_tag = "!";
      m_tag += d;
      continue;
    }
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '>') {
      if (m_tag.empty()) m_tag = " ";
      return true;
    }
    m_tag_last = c;
    if (m_tag.size() < k_max_tag) {
      m_tag += c;
    } else {
      m_tag_too_long = true;
    }
  }
  return false;
}

void JmeterXmlReader::bad(std::int64_t line, std::string_view what) {
  if (m_bad.count++ == 0) m_bad.first = fmt::format("{}:{}: {}", m_path, line, what);
}

bool JmeterXmlReader::sample_of(Record& out) {
  std::string missing;
  std::optional<long long> stamp;
  std::optional<double> elapsed;
  if (xml_attribute(m_tag, "ts", m_value)) {
    stamp = parse_integer(m_value);
  } else {
    missing += "ts (timeStamp)";
  }
  if (xml_attribute(m_tag, "t", m_value)) {
    elapsed = parse_number(m_value);
  } else {
    missing += missing.empty() ? "t (elapsed)" : " and t (elapsed)";
  }
  if (!missing.empty()) {
    bad(m_tag_line,
        fmt::format("a <{}> without {}; JMeter writes both on every sample", tag_name(m_tag), missing));
    return false;
  }
  Nanos start{0}, duration{0};
  if (!stamp || !elapsed || !scaled_time(*stamp, 1'000'000, start) ||
      !duration_of(*elapsed / 1e3, duration)) {
    bad(m_tag_line, fmt::format("<{}> ts and t: expected milliseconds", tag_name(m_tag)));
    return false;
  }
  out.start = start;
  out.duration = duration;
  out.thread = xml_attribute(m_tag, "tn", m_value) ? m_value : std::string();
  out.ok = !xml_attribute(m_tag, "s", m_value) || m_value == "true";
  out.label = xml_attribute(m_tag, "lb", m_value) ? m_value : std::string();
  return true;
}

Result<bool> JmeterXmlReader::next(Record& out) {
  char c = 0;
  while (get(c)) {
    if (c != '<') continue;  // text between tags (response data, whitespace) is not kept
    if (!read_tag()) {
      bad(m_tag_line,
          fmt::format("a tag '<{}' not closed before the end of the file (truncated)", m_tag.substr(0, 40)));
      return false;
    }
    const char first = m_tag.front();
    if (first == '?' || first == '!') continue;
    if (first == '/') {
      if (m_depth > 0 && --m_depth == 0) m_closed = true;
      continue;
    }
    const bool empty = m_tag_last == '/';
    if (m_tag_too_long) {
      // Its start is kept and its last byte known: the nesting stays right though the tag is not read.
      if (!empty) ++m_depth;
      bad(m_tag_line, fmt::format("a tag longer than {} bytes; skipped", k_max_tag));
      continue;
    }
    const std::string_view name = tag_name(m_tag);
    const bool sample = name == "httpSample" || name == "sample";
    const int depth = m_depth;
    if (!empty) ++m_depth;
    if (!sample) continue;
    if (depth != 1) {
      ++m_nested;
      continue;
    }
    if (sample_of(out)) return true;
  }
  return false;
}

std::vector<std::string> JmeterXmlReader::notes() const {
  std::vector<std::string> out;
  if (m_nested > 0) {
    out.push_back(fmt::format(
        "{} samples nested in another (a transaction's children, redirects) were left out: their parent "
        "is the thread's request",
        m_nested));
  }
  if (!m_closed) out.push_back("the file ends before </testResults>: JMeter did not finish writing it");
  return out;
}

}  // namespace openloop::audit
