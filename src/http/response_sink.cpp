// Response sink: incremental case-insensitive header name matching into fixed buffers.
#include "http/response_sink.h"

#include <algorithm>

namespace openloop::http {

namespace {
char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}
}  // namespace

ResponseSink::ResponseSink(std::vector<std::string> headers, std::size_t value_cap, std::size_t body_cap)
    : m_body(body_cap, '\0'), m_value_cap(value_cap) {
  for (auto& name : headers) {
    Kept k;
    std::transform(name.begin(), name.end(), name.begin(), lower);
    k.name = std::move(name);
    k.every = k.name == "set-cookie";
    k.value.assign(value_cap, '\0');
    m_headers.push_back(std::move(k));
  }
}

void ResponseSink::clear() {
  for (Kept& k : m_headers) {
    k.len = 0;
    k.seen = false;
    k.match = 0;
  }
  m_body_len = 0;
  m_current = nullptr;
  m_status = 0;
  m_truncated = false;
}

void ResponseSink::header_name(std::string_view piece) {
  for (Kept& k : m_headers) {
    for (const char raw : piece) {
      if (k.match < 0) break;
      const auto at = static_cast<std::size_t>(k.match);
      k.match = at < k.name.size() && k.name[at] == lower(raw) ? k.match + 1 : -1;
    }
  }
}

void ResponseSink::header_name_done() {
  m_current = nullptr;
  for (Kept& k : m_headers) {
    if (m_current == nullptr && (!k.seen || k.every) && k.match == static_cast<int>(k.name.size())) {
      m_current = &k;
      // A later Set-Cookie goes on its own line (a value never holds a line feed).
      if (k.seen) header_value("\n");
      k.seen = true;
    }
    k.match = 0;
  }
}

void ResponseSink::header_value(std::string_view piece) {
  if (m_current == nullptr) return;
  const std::size_t room = m_value_cap - m_current->len;
  if (piece.size() > room) m_truncated = true;
  const std::size_t n = std::min(room, piece.size());
  std::copy_n(piece.data(), n, m_current->value.data() + m_current->len);
  m_current->len += n;
}

void ResponseSink::body(std::string_view piece) {
  const std::size_t room = m_body.size() - m_body_len;
  if (piece.size() > room) m_truncated = true;
  const std::size_t n = std::min(room, piece.size());
  std::copy_n(piece.data(), n, m_body.data() + m_body_len);
  m_body_len += n;
}

std::optional<std::string_view> ResponseSink::header(std::size_t i) const {
  if (i >= m_headers.size() || !m_headers[i].seen) return std::nullopt;
  return std::string_view(m_headers[i].value.data(), m_headers[i].len);
}

}  // namespace openloop::http
