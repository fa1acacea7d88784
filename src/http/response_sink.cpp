// Response sink: incremental case-insensitive header name matching into bounded buffers grown on demand.
#include "http/response_sink.h"

#include <algorithm>

namespace openloop::http {

namespace {
char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// Appends what of `piece` fits under `cap` bytes to `to`; false when not all of it did. Grows `to`'s capacity
// by doubling, never beyond the cap (nothing is zero-filled; clear() keeps the capacity for the next
// response).
bool append_capped(std::string& to, std::string_view piece, std::size_t cap) {
  const std::size_t n = std::min(cap - to.size(), piece.size());
  const std::size_t need = to.size() + n;
  if (need > to.capacity()) to.reserve(std::min(cap, std::max(need, 2 * to.capacity())));
  to.append(piece.data(), n);
  return n == piece.size();
}
}  // namespace

ResponseSink::ResponseSink(std::vector<std::string> headers, std::size_t value_cap, std::size_t body_cap)
    : m_body_cap(body_cap), m_value_cap(value_cap) {
  for (auto& name : headers) {
    Kept k;
    std::transform(name.begin(), name.end(), name.begin(), lower);
    k.name = std::move(name);
    k.every = k.name == "set-cookie";
    m_headers.push_back(std::move(k));
  }
}

void ResponseSink::clear() {
  for (Kept& k : m_headers) {
    k.value.clear();
    k.seen = false;
    k.match = 0;
  }
  m_body.clear();
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
  if (m_current != nullptr && !append_capped(m_current->value, piece, m_value_cap)) m_truncated = true;
}

void ResponseSink::body(std::string_view piece) {
  if (!append_capped(m_body, piece, m_body_cap)) m_truncated = true;
}

std::optional<std::string_view> ResponseSink::header(std::size_t i) const {
  if (i >= m_headers.size() || !m_headers[i].seen) return std::nullopt;
  return std::string_view(m_headers[i].value);
}

std::size_t ResponseSink::reserved() const {
  std::size_t n = m_body.capacity();
  for (const Kept& k : m_headers) n += k.value.capacity();
  return n;
}

}  // namespace openloop::http
