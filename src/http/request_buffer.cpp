// RequestBuffer: fields appended into one string, parts as views rebuilt from their offsets.
#include "http/request_buffer.h"

#include <utility>

namespace openloop::http {

RequestBuffer::RequestBuffer(const RequestBuffer& other)
    : m_text(other.m_text),
      m_mark(other.m_mark),
      m_method(other.m_method),
      m_target(other.m_target),
      m_authority(other.m_authority),
      m_body(other.m_body),
      m_header_slices(other.m_header_slices),
      m_headers(other.m_headers),
      m_parts(other.m_parts) {
  rebuild();
}

RequestBuffer::RequestBuffer(RequestBuffer&& other) noexcept
    : m_text(std::move(other.m_text)),
      m_mark(other.m_mark),
      m_method(other.m_method),
      m_target(other.m_target),
      m_authority(other.m_authority),
      m_body(other.m_body),
      m_header_slices(std::move(other.m_header_slices)),
      m_headers(std::move(other.m_headers)),
      m_parts(other.m_parts) {
  rebuild();
}

RequestBuffer& RequestBuffer::operator=(const RequestBuffer& other) {
  if (this == &other) return *this;
  m_text = other.m_text;
  m_mark = other.m_mark;
  m_method = other.m_method;
  m_target = other.m_target;
  m_authority = other.m_authority;
  m_body = other.m_body;
  m_header_slices = other.m_header_slices;
  m_headers = other.m_headers;
  m_parts = other.m_parts;
  rebuild();
  return *this;
}

RequestBuffer& RequestBuffer::operator=(RequestBuffer&& other) noexcept {
  if (this == &other) return *this;
  m_text = std::move(other.m_text);
  m_mark = other.m_mark;
  m_method = other.m_method;
  m_target = other.m_target;
  m_authority = other.m_authority;
  m_body = other.m_body;
  m_header_slices = std::move(other.m_header_slices);
  m_headers = std::move(other.m_headers);
  m_parts = other.m_parts;
  rebuild();
  return *this;
}

void RequestBuffer::clear() {
  m_text.clear();
  m_mark = 0;
  m_method = m_target = m_authority = m_body = Slice{};
  m_header_slices.clear();
  m_headers.clear();
  m_parts = RequestParts{};
}

void RequestBuffer::end(Field field) {
  const Slice s{static_cast<std::uint32_t>(m_mark), static_cast<std::uint32_t>(m_text.size() - m_mark)};
  m_mark = m_text.size();
  switch (field) {
    case Field::method:
      m_method = s;
      break;
    case Field::target:
      m_target = s;
      break;
    case Field::authority:
      m_authority = s;
      break;
    case Field::header_name:
    case Field::header_value:
      m_header_slices.push_back(s);
      break;
    case Field::body:
      m_body = s;
      break;
  }
}

void RequestBuffer::finish(const RequestFlags& flags) {
  m_parts.flags = flags;
  rebuild();
}

void RequestBuffer::rebuild() {
  m_headers.resize(m_header_slices.size() / 2);
  for (std::size_t i = 0; i < m_headers.size(); ++i) {
    m_headers[i] = HeaderView{view(m_header_slices[2 * i]), view(m_header_slices[2 * i + 1])};
  }
  m_parts.method = view(m_method);
  m_parts.target = view(m_target);
  m_parts.authority = view(m_authority);
  m_parts.headers = std::span<const HeaderView>(m_headers);
  m_parts.body = view(m_body);
}

}  // namespace openloop::http
