// The one buffer a rendered request lives in, with its parts as views into it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "http/request_parts.h"

namespace openloop::http {

/// Owns a request's text and gives it as RequestParts. Built field by field: append() the text of a field
/// (in pieces if need be), then end() it; then finish(). Copies and moves keep the parts valid (they point
/// into the copy). Capacity is reused across clear(): allocation-free once grown to the largest request.
/// Not thread-safe.
class RequestBuffer {
 public:
  enum class Field : std::uint8_t { method, target, authority, header_name, header_value, body };

  RequestBuffer() = default;
  RequestBuffer(const RequestBuffer& other);
  RequestBuffer(RequestBuffer&& other) noexcept;
  RequestBuffer& operator=(const RequestBuffer& other);
  RequestBuffer& operator=(RequestBuffer&& other) noexcept;
  ~RequestBuffer() = default;

  /// Starts a new request: every part becomes empty (views of the previous one are invalid); keeps capacity.
  void clear();
  /// Appends to the field being written.
  void append(std::string_view text) { m_text.append(text); }
  /// Ends the field being written: everything appended since the previous end() is its value. A header is a
  /// header_name then its header_value; a field ended twice keeps the last value.
  void end(Field field);
  /// Makes parts() describe the fields ended since clear(), with `flags`.
  void finish(const RequestFlags& flags);

  /// The request (empty parts before the first finish()).
  const RequestParts& parts() const { return m_parts; }

 private:
  struct Slice {
    std::uint32_t offset = 0, size = 0;
  };
  std::string_view view(Slice s) const { return std::string_view(m_text).substr(s.offset, s.size); }
  void rebuild();  // parts from the slices

  std::string m_text;
  std::size_t m_mark = 0;  // where the field being written began
  Slice m_method, m_target, m_authority, m_body;
  std::vector<Slice> m_header_slices;  // name, value, name, value...
  std::vector<HeaderView> m_headers;
  RequestParts m_parts;
};

}  // namespace openloop::http
