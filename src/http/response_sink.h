// What a plan may keep of a response beyond its framing: the status, named headers and the body, each up to a
// cap, in memory fixed at construction (for captures of a later flow step).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace openloop::http {

/// A bounded sink a ResponseParser feeds with the final response (a 1xx interim response's parts are
/// dropped). Off unless a plan asks for one: the parser runs no code for it when none is set. Memory is
/// allocated once, in the constructor; clear() and every feed are allocation-free. Single-threaded.
class ResponseSink {
 public:
  /// `headers`: the names to keep (matched case-insensitively; the first occurrence of each counts, except
  /// Set-Cookie, whose occurrences are all kept, one per line: "a=1; Path=/\nb=2"), each value cut at
  /// `value_cap` bytes; the body cut at `body_cap` bytes (0: none kept).
  ResponseSink(std::vector<std::string> headers, std::size_t value_cap, std::size_t body_cap);

  /// A new response begins: forgets the last one's parts.
  void clear();
  void set_status(int status) { m_status = status; }
  /// A piece of a header name (llhttp may deliver one name in several pieces), then its end.
  void header_name(std::string_view piece);
  void header_name_done();
  /// A piece of the current header's value.
  void header_value(std::string_view piece);
  /// A piece of the (de-chunked) body.
  void body(std::string_view piece);

  /// The final response's status (0 before one was read).
  int status() const { return m_status; }
  /// The value of header `i` (in the constructor's order), or nullopt when the response had none (or `i` is
  /// not the index of a name given to the constructor).
  std::optional<std::string_view> header(std::size_t i) const;
  /// The body, up to the cap.
  std::string_view body() const { return {m_body.data(), m_body_len}; }
  /// True when the body was longer than the cap (or a header value longer than its cap).
  bool truncated() const { return m_truncated; }

 private:
  struct Kept {
    std::string name;   // lower case
    std::string value;  // capacity value_cap, size fixed: m_len holds the length
    std::size_t len = 0;
    bool seen = false;
    bool every = false;  // Set-Cookie: every occurrence kept, one per line
    int match = 0;  // how much of the name the current field matched (−1: it does not)
  };
  std::vector<Kept> m_headers;
  std::string m_body;
  std::size_t m_body_len = 0;
  std::size_t m_value_cap;
  Kept* m_current = nullptr;  // the header whose value is being read, null when it is not kept
  int m_status = 0;
  bool m_truncated = false;
};

}  // namespace openloop::http
